import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { FakeEmailJs } from "./fake-emailjs";

/** A lead as the store keeps it on disk (app/leads/lead.ts), read the way an operator would. */
export interface StoredLead {
  id: string;
  receivedAt: string;
  state: "pending" | "sent" | "failed" | "inbox" | "spam";
  attempts: number;
  lastError: string | null;
  reason?: "honeypot" | "missing-field" | "blocklist" | "headless";
  releasedAt?: string;
  enquiry: { name: string; email: string; countryCode: string; phoneNumber: string; message: string };
}

/** Every lead file under ENQUIRY_STORE_DIR, oldest first (none when the folder is missing). */
export function readLeads(storeDir: string): StoredLead[] {
  const folder = join(storeDir, "leads");
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(folder, name), "utf8")) as StoredLead);
}

export function leadNamed(storeDir: string, name: string): StoredLead | undefined {
  return readLeads(storeDir).find((lead) => lead.enquiry.name === name);
}

/** The requests the fake received for the enquiry from `name` (template_params.name). */
export function requestsFor(fake: FakeEmailJs, name: string) {
  return fake.requests.filter(
    (request) => (request.body as { template_params?: { name?: string } }).template_params?.name === name,
  );
}

/** Runs the built `npm run leads -- ...args` (build/leads.js, as in the image) against `storeDir`. */
export async function runLeadsCli(storeDir: string, args: string[] = []): Promise<string> {
  return (await leadsCli(storeDir, args)).stdout;
}

/** The same, with its log (stderr) and extra environment (the EmailJS ids a deployment sets). */
export async function leadsCli(
  storeDir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [join(process.cwd(), "build/leads.js"), ...args], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ENQUIRY_STORE_DIR: storeDir, ...env },
  });
}

/**
 * Writes a lead file as the store names and writes it (`<received ms>-<id>.json`), for tests
 * that need leads in given states or many of them: what the server would have left on disk.
 */
export function writeLeadFile(
  storeDir: string,
  lead: Pick<StoredLead, "state" | "enquiry"> & Partial<StoredLead>,
  receivedAt = new Date(),
): StoredLead {
  const folder = join(storeDir, "leads");
  mkdirSync(folder, { recursive: true });
  const at = receivedAt.toISOString();
  const full = {
    id: randomUUID(),
    receivedAt: at,
    attempts: 0,
    lastError: null,
    nextAttemptAt: at,
    queuedAt: at,
    ...lead,
  };
  writeFileSync(join(folder, `${receivedAt.getTime()}-${full.id}.json`), `${JSON.stringify(full)}\n`);
  return full;
}
