import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { addDays, type CountEvent, RETENTION_DAYS } from "~/campaigns/counts";
import { createFolderCampaignStore } from "~/campaigns/folder-store.server";
import { createLandingLimits } from "~/campaigns/landing-limits.server";
import { createPostgresCampaignStore } from "~/campaigns/postgres-store.server";
import { createCampaignCounts } from "~/campaigns/service.server";
import type { CampaignCountStore } from "~/campaigns/store.server";
import { createWeeklySummary } from "~/campaigns/weekly-summary.server";
import type { Database } from "~/db/database.server";
import { createLeadService } from "~/leads/lead-service.server";
import { openMigratedDatabase } from "../support/migrated-database";
import { startPostgres, type TestPostgres } from "../support/postgres";

// The campaign counts' two stores hold the same contract: every event counted once, read back
// by day, kept 400 days; the folder compacts a finished day and lets one bad file fail alone.

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres("pg-campaigns");
}, 60_000);
afterAll(async () => {
  await postgres?.dispose();
}, 60_000);

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function folder(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "campaigns-"));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  return root;
}

async function database(): Promise<Database> {
  const opened = await openMigratedDatabase(await postgres.createDatabase());
  cleanups.push(() => opened.stop());
  return opened;
}

const visit = (
  day: string,
  campaign: string | null,
  counter: CountEvent["counter"] = "visits",
): CountEvent => ({
  day,
  route: "/",
  source: campaign === null ? null : "newsletter",
  medium: null,
  campaign,
  click: null,
  host: null,
  counter,
});

const stores: Record<string, () => Promise<CampaignCountStore>> = {
  "the data folder": async () =>
    createFolderCampaignStore({ folder: join(await folder(), "campaigns"), log: () => {} }),
  PostgreSQL: async () => createPostgresCampaignStore(await database(), () => {}),
};

for (const [name, make] of Object.entries(stores)) {
  describe(`campaign counts in ${name}`, () => {
    it("counts each event once, however many arrive at once, and reads them back by day", async () => {
      const store = await make();
      const events = Array.from({ length: 200 }, (_, index) =>
        visit("2026-12-07", index % 2 === 0 ? "october" : null),
      );
      const added = await Promise.all(events.map((event) => store.add([event])));
      expect(added.every(Boolean)).toBe(true);
      await store.add([visit("2026-12-07", "october", "enquiries"), visit("2026-12-08", "october")]);
      const rows = await store.read("2026-12-07", "2026-12-07");
      expect(
        rows
          .map(({ campaign, visits, enquiries }) => ({ campaign, visits, enquiries }))
          .sort((a, b) => String(a.campaign).localeCompare(String(b.campaign))),
      ).toEqual([
        { campaign: null, visits: 100, enquiries: 0 },
        { campaign: "october", visits: 100, enquiries: 1 },
      ]);
      expect(await store.read("2026-12-08", "2026-12-31")).toHaveLength(1);
    });

    it("counts a batch of more keys than one statement can bind, whole", async () => {
      const store = await make();
      // 7,000 keys of 12 values each: past PostgreSQL's 65,535 parameters for one statement.
      const events = Array.from({ length: 7_000 }, (_, index) => visit("2026-12-07", `campaign-${index}`));
      expect(await store.add(events)).toBe(true);
      const rows = await store.read("2026-12-07", "2026-12-07");
      expect(rows).toHaveLength(7_000);
      expect(rows.reduce((sum, row) => sum + row.visits, 0)).toBe(7_000);
    });

    it("sums by campaign and day, or by landing page over the days, for the report", async () => {
      const store = await make();
      const on = (day: string, route: string, host: string | null) => ({
        ...visit(day, "october"),
        route,
        host,
      });
      await store.add([
        on("2026-12-01", "/", null),
        on("2026-12-01", "/insights", "a.example"),
        on("2026-12-02", "/", "b.example"),
      ]);
      const byCampaign = await store.read("2026-12-01", "2026-12-02", "campaign-day");
      expect(
        byCampaign
          .map(({ day, route, campaign, host, visits }) => ({ day, route, campaign, host, visits }))
          .sort((a, b) => a.day.localeCompare(b.day)),
      ).toEqual([
        { day: "2026-12-01", route: null, campaign: "october", host: null, visits: 2 },
        { day: "2026-12-02", route: null, campaign: "october", host: null, visits: 1 },
      ]);
      const byPage = await store.read("2026-12-01", "2026-12-02", "route");
      expect(
        byPage
          .map(({ day, route, campaign, visits }) => ({ day, route, campaign, visits }))
          .sort((a, b) => String(a.route).localeCompare(String(b.route))),
      ).toEqual([
        { day: "2026-12-01", route: "/", campaign: null, visits: 2 },
        { day: "2026-12-01", route: "/insights", campaign: null, visits: 1 },
      ]);
    });

    it(`keeps ${RETENTION_DAYS} days and drops the day before`, async () => {
      const store = await make();
      const today = "2026-12-07";
      await store.add([
        visit(addDays(today, -RETENTION_DAYS), "old"),
        visit(addDays(today, -RETENTION_DAYS - 1), "older"),
      ]);
      await store.prune(today);
      const rows = await store.read("2020-01-01", today);
      expect(rows.map((row) => row.campaign)).toEqual(["old"]);
    });
  });
}

describe("campaign counts in the data folder", () => {
  it("compacts a finished day into its rows, and still adds what comes after", async () => {
    const dir = join(await folder(), "campaigns");
    const store = createFolderCampaignStore({ folder: dir, log: () => {} });
    await store.add([
      visit("2026-12-01", "october"),
      visit("2026-12-01", "october"),
      visit("2026-12-07", "x"),
    ]);
    await store.prune("2026-12-07");
    expect((await readdir(dir)).sort()).toEqual(["2026-12-01.json", "2026-12-07.log", "2026-12.json"]);
    await store.add([visit("2026-12-01", "october", "enquiries")]);
    expect(await store.read("2026-12-01", "2026-12-01")).toEqual([
      expect.objectContaining({ day: "2026-12-01", campaign: "october", visits: 2, enquiries: 1 }),
    ]);
  });

  it("rolls a month's finished days up and reads them from it while their files are unchanged", async () => {
    const dir = join(await folder(), "campaigns");
    const lines: string[] = [];
    const store = createFolderCampaignStore({ folder: dir, log: (line) => lines.push(line) });
    await store.add([
      visit("2026-11-03", "october"),
      visit("2026-11-03", "october"),
      { ...visit("2026-11-03", "october", "enquiries"), route: "/insights/:slug" },
      visit("2026-11-04", null, "whatsappTaps"),
      visit("2026-12-01", "december"),
    ]);
    const reads = () =>
      Promise.all([
        store.read("2026-11-01", "2026-12-31", "campaign-day"),
        store.read("2026-11-01", "2026-11-30", "route"),
      ]);
    const fromDays = await reads();
    await store.prune("2026-12-07");
    expect((await readdir(dir)).sort()).toEqual([
      "2026-11-03.json",
      "2026-11-04.json",
      "2026-11.json",
      "2026-12-01.json",
      "2026-12.json",
    ]);
    expect(await reads()).toEqual(fromDays);

    // What the roll-up says stands for the day (here doubled by hand, so the read shows where it came from).
    const month = join(dir, "2026-11.json");
    const rolled = JSON.parse(await readFile(month, "utf8")) as Record<string, { campaigns: number[][] }>;
    const visits = 6; // The row's counters follow its six key fields: visits first.
    for (const row of rolled["2026-11-03"]?.campaigns ?? []) row[visits] = Number(row[visits]) * 2;
    await writeFile(month, JSON.stringify(rolled));
    const octoberVisits = async () =>
      (await store.read("2026-11-03", "2026-11-03", "campaign-day")).find((row) => row.campaign === "october")
        ?.visits;
    expect(await octoberVisits()).toBe(4);

    // A late event: the day has a log again, and is read from its files until compacted and rolled up again.
    await store.add([visit("2026-11-03", "october")]);
    expect(await octoberVisits()).toBe(3);
    await store.prune("2026-12-07");
    expect(await octoberVisits()).toBe(3);
    expect(JSON.parse(await readFile(month, "utf8"))["2026-11-03"].campaigns).toEqual([
      [null, "newsletter", null, "october", null, null, 3, 1, 0, 0, 0],
    ]);

    // A month's file that is no roll-up is read past, then made again; once its days are gone, so is it.
    await writeFile(month, "{ not a roll-up");
    expect(await octoberVisits()).toBe(3);
    await store.prune("2026-12-07");
    expect(JSON.parse(await readFile(month, "utf8"))).toHaveProperty("2026-11-04");
    await store.prune(addDays("2026-11-30", RETENTION_DAYS + 1));
    expect((await readdir(dir)).sort()).toEqual(["2026-12-01.json", "2026-12.json"]);
    expect(lines).toEqual([]);
  });

  it("reads a day whose file is no rows as empty, with one line, and never follows a link", async () => {
    const dir = join(await folder(), "campaigns");
    const lines: string[] = [];
    const store = createFolderCampaignStore({ folder: dir, log: (line) => lines.push(line) });
    await store.add([visit("2026-12-02", "kept"), visit("2026-12-03", "torn")]);
    await writeFile(join(dir, "2026-12-01.json"), "{ not rows");
    await writeFile(
      join(dir, "2026-12-03.log"),
      '["/","newsletter",null,"torn",null,null,"visits"]\n["/","news',
      { flag: "a" },
    );
    await symlink("/etc/hostname", join(dir, "2026-12-04.log"));
    const rows = await store.read("2026-12-01", "2026-12-31");
    expect(rows.map((row) => [row.day, row.campaign, row.visits])).toEqual([
      ["2026-12-02", "kept", 1],
      ["2026-12-03", "torn", 2],
    ]);
    expect(lines).toEqual([
      expect.stringMatching(/2026-12-01\.json is not a day's counts; its day reads as empty/),
    ]);
  });
});

describe("the counts' service", () => {
  it("counts a landing within the landing limit, and counts what the limit drops, by day only", async () => {
    const counts = createCampaignCounts({
      config: { ENQUIRY_STORE_DIR: await folder(), REPORT_TIME_ZONE: "Asia/Kolkata" },
      database: null,
      limits: createLandingLimits({ LANDING_RATE_LIMIT: 2, VITALS_RATE_WINDOW: 600 }),
      now: () => new Date("2026-12-07T06:00:00Z"),
      log: () => {},
    });
    const outcomes = [];
    for (let index = 0; index < 4; index += 1)
      outcomes.push(
        await counts.countLanding("/", { source: "newsletter", host: "mail.example.com" }, "203.0.113.9"),
      );
    expect(outcomes).toEqual(["counted", "counted", "dropped", "dropped"]);
    // A beacon's counts wait for the next batch: nothing is written before it.
    expect(await counts.store.read("2026-12-07", "2026-12-07")).toEqual([]);
    await counts.flush();
    const rows = await counts.store.read("2026-12-07", "2026-12-07");
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ route: "/", source: "newsletter", host: "mail.example.com", visits: 2 }),
        expect.objectContaining({ route: null, source: null, host: null, visits: 0, droppedVisits: 2 }),
      ]),
    );
  });
});

describe("the weekly summary", () => {
  it("is posted once by two replicas on one database, whichever comes first", async () => {
    const db = await database();
    const store = createPostgresCampaignStore(db, () => {});
    await store.add([visit("2026-12-01", "october"), visit("2026-12-02", "october", "enquiries")]);
    const posted: string[] = [];
    const replica = () =>
      createWeeklySummary({
        when: { day: 1, hour: 9, minute: 0 },
        timeZone: "Asia/Kolkata",
        store,
        post: (text) => posted.push(text),
        database: db,
        folder: "/nonexistent",
        now: () => new Date("2026-12-07T03:35:00Z"),
      });
    const [a, b] = [replica(), replica()];
    await Promise.all([a.check(), b.check(), a.check(), b.check()]);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toContain("Campaigns, 2026-11-30 to 2026-12-06: 1 visits, 1 enquiries (100.0 %).");
  });

  it("without a database, once per data folder", async () => {
    const dir = join(await folder(), "campaigns");
    const store = createFolderCampaignStore({ folder: dir, log: () => {} });
    const posted: string[] = [];
    const summary = createWeeklySummary({
      when: { day: 1, hour: 9, minute: 0 },
      timeZone: "Asia/Kolkata",
      store,
      post: (text) => posted.push(text),
      database: null,
      folder: dir,
      now: () => new Date("2026-12-07T03:35:00Z"),
    });
    await summary.check();
    await summary.check();
    expect(posted).toEqual([
      "Campaigns, 2026-11-30 to 2026-12-06: 0 visits, 0 enquiries (–).\nnpm run report has the rest.",
    ]);
  });
});

describe("a lead stored is counted once, in its store", () => {
  const enquiry = {
    name: "Asha Rao",
    email: "asha@example.in",
    countryCode: "91",
    phoneNumber: "9876543210",
    message: "Hello",
  };
  const source = { landing: "/", parameters: { utm_source: "newsletter", utm_campaign: "october" } };

  for (const [name, withDatabase] of [
    ["PostgreSQL", true],
    ["the data folder", false],
  ] as const) {
    it(`in ${name}: the same enquiry twice is one count; a quarantined one counts apart`, async () => {
      const root = await folder();
      const db = withDatabase ? await database() : null;
      const counts = createCampaignCounts({
        config: { ENQUIRY_STORE_DIR: root, REPORT_TIME_ZONE: "Asia/Kolkata" },
        database: db,
        limits: createLandingLimits({ LANDING_RATE_LIMIT: 0, VITALS_RATE_WINDOW: 600 }),
        log: () => {},
      });
      const service = createLeadService(
        {
          ENQUIRY_STORE_DIR: root,
          ENQUIRY_SEND_INTERVAL_MS: 50,
          ENQUIRY_RETENTION_DAYS: 90,
          ENQUIRY_SPAM_RETENTION_DAYS: 30,
          NOTICE_SECRET: undefined,
        },
        { routes: {} },
        db,
        () => {},
        undefined,
        counts.leads,
      );
      cleanups.push(() => service.stop());
      expect(await service.keep(enquiry, source)).toMatchObject({ kind: "stored", duplicate: false });
      expect(await service.keep(enquiry, source)).toMatchObject({ kind: "stored", duplicate: true });
      expect(await service.quarantine(enquiry, "honeypot", source)).not.toBeNull();
      const rows = await counts.store.read(counts.today(), counts.today());
      expect(rows).toEqual([
        expect.objectContaining({
          route: "/",
          source: "newsletter",
          campaign: "october",
          enquiries: 1,
          spam: 1,
        }),
      ]);
    });
  }
});
