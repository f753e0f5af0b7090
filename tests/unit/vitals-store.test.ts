import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFolderVitalsStore, PREVIOUS_VITALS_FILE, VITALS_FILE } from "~/vitals/folder-store.server";
import type { Beacon } from "~/vitals/metrics";
import { RETENTION_MS, recordsOf } from "~/vitals/store.server";
import { parseRecords } from "~/vitals/summary";

const DAY = 24 * 60 * 60 * 1000;
const beacon: Beacon = {
  route: "/",
  device: "mobile",
  navigationType: "navigate",
  cores: 4,
  memoryGb: 2,
  metrics: [
    { name: "LCP", value: 2100, rating: "good" },
    { name: "CLS", value: 0.3, rating: "good" },
  ],
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "vitals-store-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lines = (file = VITALS_FILE) =>
  existsSync(join(dir, file)) ? readFileSync(join(dir, file), "utf8").trimEnd().split("\n") : [];

describe("recordsOf", () => {
  it("makes one line per metric: the hour, route, device, navigation, cores and memory, nothing about the visitor", () => {
    const records = recordsOf(beacon, new Date("2025-06-20T10:42:17.123Z"));
    expect(records).toEqual([
      {
        at: "2025-06-20T10:00:00.000Z",
        route: "/",
        device: "mobile",
        nav: "navigate",
        cores: 4,
        memoryGb: 2,
        metric: "LCP",
        value: 2100,
        rating: "good",
      },
      // The rating is the server's, from the value: a beacon cannot call a poor CLS good.
      {
        at: "2025-06-20T10:00:00.000Z",
        route: "/",
        device: "mobile",
        nav: "navigate",
        cores: 4,
        memoryGb: 2,
        metric: "CLS",
        value: 0.3,
        rating: "poor",
      },
    ]);
  });
});

describe("createFolderVitalsStore", () => {
  it("appends whole lines, creating the folder, and serialises concurrent appends", async () => {
    const store = createFolderVitalsStore({ dir: join(dir, "nested"), maxBytes: 1024 * 1024 });
    dir = join(dir, "nested");
    const records = recordsOf(beacon, new Date());
    const results = await Promise.all(Array.from({ length: 20 }, () => store.append(records)));
    expect(results.every(Boolean)).toBe(true);
    expect(lines()).toHaveLength(40);
    expect(parseRecords(readFileSync(join(dir, VITALS_FILE), "utf8"))).toHaveLength(40);
  });

  it("starts a fresh line after a torn one, so the new metrics stay readable", async () => {
    writeFileSync(join(dir, VITALS_FILE), `${JSON.stringify(recordsOf(beacon, new Date())[0])}\n{"at":"20`);
    const store = createFolderVitalsStore({ dir, maxBytes: 1024 * 1024 });
    await store.append(recordsOf(beacon, new Date()));
    expect(parseRecords(readFileSync(join(dir, VITALS_FILE), "utf8"))).toHaveLength(3);
  });

  it("rotates when the file would pass its cap, dropping the oldest file: never more than twice the cap", async () => {
    const store = createFolderVitalsStore({ dir, maxBytes: 1000 });
    const records = recordsOf(beacon, new Date());
    for (let i = 0; i < 30; i += 1) {
      await store.append(records);
      const current = statSync(join(dir, VITALS_FILE)).size;
      const previous = existsSync(join(dir, PREVIOUS_VITALS_FILE))
        ? statSync(join(dir, PREVIOUS_VITALS_FILE)).size
        : 0;
      expect(current).toBeLessThanOrEqual(1000);
      expect(current + previous).toBeLessThanOrEqual(2000);
    }
    expect(lines(PREVIOUS_VITALS_FILE).length).toBeGreaterThan(0);
    // 30 beacons of 2 lines, but only the newest fit in the two files.
    expect(lines().length + lines(PREVIOUS_VITALS_FILE).length).toBeLessThan(60);
  });

  it("writes a batch larger than its cap in parts, rotating between them: the newest lines are kept, whole", async () => {
    const store = createFolderVitalsStore({ dir, maxBytes: 1000 });
    const batch = Array.from({ length: 30 }, (_, index) =>
      recordsOf({ ...beacon, metrics: [{ name: "LCP", value: 1000 + index, rating: "good" }] }, new Date()),
    ).flat();
    expect(await store.append(batch)).toBe(true);
    expect(statSync(join(dir, VITALS_FILE)).size).toBeLessThanOrEqual(1000);
    expect(statSync(join(dir, PREVIOUS_VITALS_FILE)).size).toBeLessThanOrEqual(1000);
    const kept = [...lines(PREVIOUS_VITALS_FILE), ...lines()].map((line) => JSON.parse(line).value);
    // The two files hold the batch's last lines, in order, up to its last.
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, index) => 1030 - kept.length + index));
  });

  it("ages metrics out: nothing is kept past the retention period, even without new beacons", async () => {
    const start = Date.parse("2025-06-01T00:00:00Z");
    let time = start;
    const store = createFolderVitalsStore({ dir, maxBytes: 1024 * 1024, now: () => time });
    const appendAt = async (day: number) => {
      time = start + day * DAY;
      await store.append(recordsOf(beacon, new Date(time)));
      utimesSync(join(dir, VITALS_FILE), time / 1000, time / 1000);
    };
    await appendAt(0);
    await appendAt(10);

    time = start + 13 * DAY;
    await store.prune();
    expect(lines()).toHaveLength(4);

    // Half the retention period after its first line, the file becomes the previous one...
    time = start + 14 * DAY;
    await store.prune();
    expect(lines()).toEqual([]);
    expect(lines(PREVIOUS_VITALS_FILE)).toHaveLength(4);
    await appendAt(15);

    // ...which is deleted once its newest line is that old, so its oldest never reaches 28 days.
    time = start + 23 * DAY;
    await store.prune();
    expect(lines(PREVIOUS_VITALS_FILE)).toHaveLength(4);
    time = start + 24 * DAY;
    await store.prune();
    expect(existsSync(join(dir, PREVIOUS_VITALS_FILE))).toBe(false);
    expect(lines()).toHaveLength(2);
    expect(time - start).toBeLessThan(RETENTION_MS);
  });

  it("logs one line and answers false when the folder cannot be written, then works again", async () => {
    const blocker = join(dir, "not-a-folder");
    writeFileSync(blocker, "");
    const logged: string[] = [];
    const store = createFolderVitalsStore({ dir: blocker, maxBytes: 1024, log: (line) => logged.push(line) });
    expect(await store.append(recordsOf(beacon, new Date()))).toBe(false);
    expect(await store.append(recordsOf(beacon, new Date()))).toBe(false);
    await store.prune();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^vitals: cannot write field metrics to .*not-a-folder.*ENQUIRY_STORE_DIR/);

    rmSync(blocker);
    expect(await store.append(recordsOf(beacon, new Date()))).toBe(true);
  });
});
