import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { directSendsMessage, gaveUpMessage, queueWaitingMessage } from "~/destinations/alert-messages";
import type { DeliveryResult, Destination, LeadToSend } from "~/destinations/destination";
import {
  DESTINATIONS,
  type DestinationName,
  destinationNamed,
  destinations,
  LONGEST_DESTINATION_TIMEOUT_MS,
} from "~/destinations/lookup.server";
import { type Env, parseEnv } from "~/env.server";
import type { Enquiry } from "~/lead-parts/enquiry";
import { leadReference } from "~/lead-parts/reference";
import { configuredDestinations, createDelivery, type GaveUp } from "~/leads/delivery/delivery.server";
import { createDirectSends } from "~/leads/direct-sends.server";
import { createFolderDelivererLock, delivererLockPath } from "~/leads/folder/lock.server";
import { createFolderLeadStore } from "~/leads/folder/store.server";
import { type Lead, newLead } from "~/leads/lead";
import { readArguments } from "~/leads/operations/command-forms";
import { tellErased } from "~/leads/operations/erased-event";
import { describeDeliveries } from "~/leads/operations/lead-view";
import { writeLeadsCsv } from "~/leads/operations/leads-csv";
import { missingDestinationSettings } from "../../scripts/lib/destination-settings";
import { createLeadDestinations } from "../../server/lead-destinations";
import { createCleanups } from "../support/cleanups";

// A third destination added as a maintainer would: its adapter (below: a CRM's API, faked) and
// one line in the registry (the mock appends it to app/destinations/registry.server.ts's list),
// its settings in the environment. Nothing else changes, and everything that reads destinations
// finds it: delivery, retries, the alerts, the CSV, erasure, `npm run leads`, direct sends, the
// lease and `npm run check`'s settings check.
const crm = vi.hoisted(() => {
  /** What the CRM answers each lead's attempts, in turn, by the lead's name; then 201. */
  const answers = new Map<string, number[]>();
  const received: string[] = [];
  const erased: string[] = [];
  /** The CRM's own rules: 2xx delivers, 5xx is worth another try, any other answer is final. */
  const judge = (status: number): DeliveryResult =>
    status >= 200 && status < 300
      ? { ok: true }
      : { ok: false, retry: status >= 500, error: { status, cause: `HTTP ${status}` } };
  const destination = {
    name: "crm",
    title: "the CRM",
    timeoutMs: 25_000,
    settings: ["CRM_API_URL", "CRM_API_KEY"],
    check: "check the CRM's API key (CRM_API_KEY)",
    directSend: true,
    erasure: { told: true as const, event: "contact.deleted", where: "the CRM" },
    judge,
    connect(env: Record<string, unknown>) {
      if (typeof env.CRM_API_URL !== "string") return null;
      return {
        host: "crm.example",
        async send(lead: LeadToSend) {
          received.push(lead.id);
          return judge(answers.get(lead.enquiry.name)?.shift() ?? 201);
        },
        async tellErased(leadId: string) {
          erased.push(leadId);
          return { ok: true as const };
        },
      };
    },
  };
  return { destination, answers, received, erased };
});

vi.mock("~/destinations/registry.server", async (importOriginal) => {
  const registry = await importOriginal<typeof import("~/destinations/registry.server")>();
  return { DESTINATION_REGISTRY: [...registry.DESTINATION_REGISTRY, crm.destination] };
});

const CRM = "crm" as DestinationName;
const enquiry = (name: string): Enquiry => ({
  name,
  email: "asha@example.in",
  countryCode: "91",
  phoneNumber: "9876543210",
  message: "A booking app",
});

const cleanups = createCleanups();
afterEach(() => cleanups.run());

/** The site's environment with only the CRM configured (no EmailJS, no webhook). */
function crmEnv(folder: string): Env {
  const env = parseEnv({ ENQUIRY_STORE_DIR: folder }, () => {});
  return { ...env, CRM_API_URL: "https://crm.example/api", CRM_API_KEY: "key" } as Env;
}

describe("a third destination: its adapter and one registry line", () => {
  it("is a destination like the others: the compiler's shape, its name listed, its time limit in the lease", () => {
    // The shape is the compiler's; its settings are not in this checkout's schema (a real one's are).
    const declared: Omit<Destination<string, number>, "settings" | "connect"> = crm.destination;
    expect(declared.name).toBe("crm");
    expect(DESTINATIONS).toEqual(["emailjs", "webhook", "crm"]);
    expect(LONGEST_DESTINATION_TIMEOUT_MS).toBe(25_000);
  });

  it("is delivered once, retried, alerted on, exported, listed and erased", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const root = await mkdtemp(join(tmpdir(), "new-destination-"));
    cleanups.add(`the folder ${root} is removed`, () => rm(root, { recursive: true, force: true }));
    const folder = join(root, "leads");
    await mkdir(folder, { recursive: true });
    const store = createFolderLeadStore({ folder, log: () => {} });
    const connected = createLeadDestinations(crmEnv(root), () => {});
    expect(Object.keys(connected.routes)).toEqual(["crm"]);

    crm.answers.set("Busy first", [503]);
    crm.answers.set("Refused", [422]);
    // As the server keeps an enquiry: due at each destination it has configured.
    const busy = await store.add(enquiry("Busy first"), configuredDestinations(connected.routes));
    const refused = await store.add(enquiry("Refused"), configuredDestinations(connected.routes));
    expect(busy.destinations).toEqual({ crm: expect.objectContaining({ state: "pending" }) });

    const gaveUp: GaveUp[] = [];
    const delivery = createDelivery({
      store,
      routes: connected.routes,
      lock: createFolderDelivererLock({ path: delivererLockPath(folder) }),
      intervalMs: 0,
      retentionDays: 90,
      spamRetentionDays: 30,
      heartbeatMs: 50,
      scanMs: 100,
      random: () => 0,
      onGaveUp: (notice) => gaveUp.push(notice),
      log: () => {},
    });
    cleanups.add("the delivery stops", () => delivery.stop());
    delivery.start();
    const stored = async (id: string) => (await store.list()).find((lead) => lead.id === id) as Lead;

    // Retried: the 503 is tried again after the backoff (5 s at its least), then delivered.
    await expect
      .poll(async () => (await stored(busy.id)).destinations, { timeout: 20_000 })
      .toEqual({ crm: expect.objectContaining({ state: "sent", attempts: 2, lastError: null }) });
    // Refused for good: given up at once, which the alerts tell with the CRM's own words.
    await expect.poll(async () => (await stored(refused.id)).state).toBe("failed");
    await delivery.stop();
    // Delivered once: one failed attempt and one taken, nothing sent after it took the lead.
    expect(crm.received.filter((id) => id === busy.id)).toHaveLength(2);
    expect(crm.received.filter((id) => id === refused.id)).toHaveLength(1);

    expect(gaveUp).toEqual([
      { leadId: refused.id, destination: "crm", attempts: 1, error: { status: 422, cause: "HTTP 422" } },
    ]);
    const [notice] = gaveUp;
    if (!notice) throw new Error("no give-up");
    expect(gaveUpMessage({ ...notice })).toBe(
      `Lead ${refused.id} (${leadReference(refused.id)}) was not delivered to the CRM: it gave up after 1 attempt (HTTP 422). To fix it, check the CRM's API key (CRM_API_KEY), then run \`npm run leads -- retry ${refused.id}\`.`,
    );
    expect(
      queueWaitingMessage({
        oldestId: busy.id,
        waitedMs: 60_000,
        waiting: 1,
        afterMinutes: 1,
        reminder: false,
      }),
    ).toContain("the EMAILJS_*, LEAD_WEBHOOK_* and CRM_API_* variables");
    expect(directSendsMessage({ replica: "web-1", count: 1 })).toContain(
      "directly to EmailJS, the lead webhook and the CRM, as configured",
    );

    // Listed by `npm run leads`, and a destination `retry --to` takes.
    const leads = [await stored(busy.id), await stored(refused.id)];
    expect(leads.map(describeDeliveries)).toEqual(["crm sent", "crm failed (1, HTTP 422)"]);
    expect(readArguments("leads", ["retry", "--failed", "--to", "crm"])).not.toBeNull();

    // Exported: its own column in the CSV.
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (chunk: Buffer) => chunks.push(chunk));
    await writeLeadsCsv(leads, out);
    const [header = "", ...rows] = Buffer.concat(chunks)
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .split("\r\n");
    expect(header.split(",").slice(0, 6)).toEqual(["id", "received", "state", "emailjs", "webhook", "crm"]);
    expect(rows[0]?.split(",").slice(3, 6)).toEqual(["", "", "sent"]);
    expect(rows[1]?.split(",").slice(3, 6)).toEqual(["", "", "failed"]);

    // Erased: the store names it as holding the lead, and it is told the way it declares.
    expect(await store.erase(await stored(busy.id))).toEqual(["crm"]);
    const declared = destinationNamed(CRM);
    expect(declared.erasure).toEqual({ told: true, event: "contact.deleted", where: "the CRM" });
    const link = declared.connect(crmEnv(root), () => {});
    if (link === null || link === "held" || !link.tellErased) throw new Error("the CRM hears of erasures");
    expect(await tellErased(link.tellErased, busy.id, new Date(), async () => {})).toEqual({
      took: true,
      attempts: 1,
    });
    expect(crm.erased).toEqual([busy.id]);
  }, 60_000);

  it("takes a direct send, and the visitor is told it was sent when it took it", async () => {
    const connected = createLeadDestinations(crmEnv(tmpdir()), () => {});
    const direct = createDirectSends(connected.direct, () => {});
    const lead = newLead({
      id: crypto.randomUUID(),
      destinations: [],
      at: new Date(),
      enquiry: enquiry("Direct"),
    });
    expect(await direct.send(lead, "the store is unusable")).toEqual({
      kind: "sent",
      id: lead.id,
      to: ["crm"],
    });
    crm.answers.set("Direct refused", [503]);
    const refusedLead = { ...lead, id: crypto.randomUUID(), enquiry: enquiry("Direct refused") };
    expect(await direct.send(refusedLead, "the store is unusable")).toEqual({
      kind: "unkept",
      reachable: true,
    });
  });

  it("fails npm run check's settings check until its settings are in .env.example and docs/configuration.md", async () => {
    const texts = {
      envExample: await readFile(join(process.cwd(), ".env.example"), "utf8"),
      configurationDoc: await readFile(join(process.cwd(), "docs", "configuration.md"), "utf8"),
    };
    expect(missingDestinationSettings(destinations(), texts)).toEqual([
      "crm: CRM_API_URL is not in .env.example",
      "crm: CRM_API_URL is not in docs/configuration.md",
      "crm: CRM_API_KEY is not in .env.example",
      "crm: CRM_API_KEY is not in docs/configuration.md",
    ]);
    const documented = {
      envExample: `${texts.envExample}\n# CRM_API_URL=\nCRM_API_KEY=\n`,
      configurationDoc: `${texts.configurationDoc}\n| \`CRM_API_URL\` | \`CRM_API_KEY\` |\n`,
    };
    expect(missingDestinationSettings(destinations(), documented)).toEqual([]);
  });
});
