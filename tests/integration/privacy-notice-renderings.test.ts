import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createDatabase, type Database } from "~/db/database.server";
import { readMigrations } from "~/db/migrations.server";
import {
  createPrivacyNoticeRenderings,
  type PrivacyNoticeRenderings,
  RENDERINGS_FOLDER,
} from "~/enquiry/privacy-notice-renderings.server";
import { PRIVACY_NOTICE_VERSION } from "~/privacy-notice";
import { privacyNoticeRenderings, privacyNoticeSha256 } from "~/privacy-notice/rendering.server";
import type { PrivacyNoticeFacts } from "~/privacy-notice/text";
import { startPostgres, type TestPostgres } from "../support/postgres";

// Servers A and B show the notice with other settings: B, or A restarted with B's settings,
// must still know the text A's page showed. Each "server" is its own instance on one store.

const factsA: PrivacyNoticeFacts = { retentionDays: 90, contact: { email: "asha@example.in" } };
const factsB: PrivacyNoticeFacts = { retentionDays: 30, contact: { email: "dpo@example.in" } };
const shownByA = privacyNoticeRenderings(factsA);
const shownByB = privacyNoticeRenderings(factsB);
const [englishOfA, hindiOfA] = shownByA;

const started: PrivacyNoticeRenderings[] = [];
/** Stops every server's renderings once their writes have ended: each suite's cleanup comes after. */
const stopServers = () => Promise.all(started.splice(0).map((renderings) => renderings.stop()));

/** A server's renderings on `store`, started; `lines` collects its log. */
function server(
  store: { storeDir: string; database?: Database },
  facts: PrivacyNoticeFacts,
  lines: string[] = [],
  retryMs?: number,
) {
  const renderings = createPrivacyNoticeRenderings({
    own: privacyNoticeRenderings(facts),
    storeDir: store.storeDir,
    database: store.database ?? null,
    log: (line) => lines.push(line),
    retryMs,
  });
  renderings.start();
  started.push(renderings);
  return renderings;
}

describe("the renderings in the data folder", () => {
  let storeDir: string;
  beforeEach(async () => {
    storeDir = await mkdtemp(join(tmpdir(), "renderings-"));
  });
  afterEach(async () => {
    await stopServers();
    await rm(storeDir, { recursive: true, force: true });
  });
  const folder = () => join(storeDir, RENDERINGS_FOLDER);
  // The renderings' names: a write's temporary file (.tmp-…) is not one yet.
  const files = async () =>
    (await readdir(folder()).catch(() => [])).filter((name) => name.endsWith(".json")).sort();

  it("keeps each text a server shows as <sha256>.json with its words, which a server of other settings, and one started later, finds", async () => {
    server({ storeDir }, factsA);
    const expected = shownByA.map((rendering) => `${rendering.sha256}.json`).sort();
    await vi.waitFor(async () => expect(await files()).toEqual(expected));
    const file = JSON.parse(await readFile(join(folder(), `${hindiOfA?.sha256}.json`), "utf8"));
    expect(file).toMatchObject({ version: PRIVACY_NOTICE_VERSION, language: "hi", text: hindiOfA?.text });
    expect(privacyNoticeSha256(file.text)).toBe(hindiOfA?.sha256);
    expect(file.text).toContain("90 दिन");

    const b = server({ storeDir }, factsB);
    expect(await b.find(hindiOfA?.sha256 ?? "")).toEqual(hindiOfA);
    expect(await b.find(shownByB[0]?.sha256 ?? "")).toEqual(shownByB[0]);
    // A restarted with B's settings: what A's page showed before is still known.
    const restarted = createPrivacyNoticeRenderings({ own: shownByB, storeDir, database: null });
    expect(await restarted.find(englishOfA?.sha256 ?? "")).toEqual(englishOfA);
    await vi.waitFor(async () => expect(await files()).toHaveLength(4));
  });

  it("stops once the write under way has ended: both texts in the folder, no temporary file left", async () => {
    await server({ storeDir }, factsA).stop();
    const expected = shownByA.map((rendering) => `${rendering.sha256}.json`).sort();
    expect((await readdir(folder())).sort()).toEqual(expected);
  });

  it("finds nothing for a text no server showed, a file whose words do not hash to its name, or a value that is no hash", async () => {
    const b = server({ storeDir }, factsB);
    await vi.waitFor(async () => expect(await files()).toHaveLength(2));
    const never = privacyNoticeRenderings({ retentionDays: 7, contact: { email: "x@example.in" } })[0];
    expect(await b.find(never?.sha256 ?? "")).toBeUndefined();
    // Someone wrote A's hash beside other words: not what A showed.
    await writeFile(
      join(folder(), `${englishOfA?.sha256}.json`),
      JSON.stringify({ ...englishOfA, text: `${englishOfA?.text} (edited)` }),
    );
    expect(await b.find(englishOfA?.sha256 ?? "")).toBeUndefined();
    for (const value of ["", "../../etc/passwd", "A".repeat(64), `${shownByB[0]?.sha256}\n`]) {
      expect(await b.find(value)).toBeUndefined();
    }
  });

  it("when it cannot write: one line naming the folder, its own texts still known, recorded once it can", async () => {
    await writeFile(folder(), "not a folder");
    const lines: string[] = [];
    const a = server({ storeDir }, factsA, lines, 50);
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    expect(lines[0]).toMatch(
      new RegExp(
        `^privacy notice: cannot record the text this server shows in ${folder()} \\((EEXIST|ENOTDIR)\\); `,
      ),
    );
    expect(await a.find(hindiOfA?.sha256 ?? "")).toEqual(hindiOfA);
    const b = server({ storeDir }, factsB);
    expect(await b.find(hindiOfA?.sha256 ?? "")).toBeUndefined();
    expect(lines).toHaveLength(1);

    await rm(folder());
    await vi.waitFor(async () =>
      expect(
        (await files()).filter((name) => shownByA.some((each) => name === `${each.sha256}.json`)),
      ).toHaveLength(2),
    );
    expect(await b.find(hindiOfA?.sha256 ?? "")).toEqual(hindiOfA);
    await vi.waitFor(() => expect(lines).toHaveLength(2));
    expect(lines[1]).toBe(`privacy notice: recorded the text this server shows in ${folder()}`);
  });
});

describe("the renderings in PostgreSQL", () => {
  let postgres: TestPostgres;
  let databases: Database[] = [];
  beforeAll(async () => {
    postgres = await startPostgres("pg-unit-renderings");
  }, 60_000);
  afterAll(async () => {
    await postgres?.dispose();
  }, 60_000);
  afterEach(async () => {
    await stopServers();
    await Promise.all(databases.splice(0).map((database) => database.stop()));
  });

  /** Two replicas' connections to one new database. */
  async function replicas() {
    const url = await postgres.createDatabase();
    const [a, b] = [0, 1].map(() =>
      createDatabase({ url, poolSize: 2, migrations: readMigrations(), log: () => {} }),
    );
    databases = [a, b].filter((database) => database !== undefined);
    for (const database of databases) database.start();
    await Promise.all(databases.map((database) => database.ready()));
    return { url, a, b } as { url: string; a: Database; b: Database };
  }

  it("keeps each text a replica shows as a row, which a replica of other settings finds; a row whose words do not hash to it is not", async () => {
    const { url, a, b } = await replicas();
    const storeDir = "/nonexistent-data-folder";
    const lines: string[] = [];
    server({ storeDir, database: a }, factsA, lines);
    const name = new URL(url).pathname.slice(1);
    const rows = () =>
      postgres.sql<{ sha256: string; version: string; language: string; text: string }>(
        "SELECT sha256, version, language, text FROM privacy_notice_renderings ORDER BY language",
        [],
        name,
      );
    await vi.waitFor(async () => expect(await rows()).toEqual(shownByA));
    const replicaB = server({ storeDir, database: b }, factsB, lines);
    expect(await replicaB.find(hindiOfA?.sha256 ?? "")).toEqual(hindiOfA);
    await vi.waitFor(async () => expect(await rows()).toHaveLength(4));

    const never = privacyNoticeRenderings({ retentionDays: 7, contact: { email: "x@example.in" } })[0];
    await postgres.sql(
      "INSERT INTO privacy_notice_renderings (sha256, version, language, text) VALUES ($1, $2, $3, $4)",
      [never?.sha256, never?.version, never?.language, englishOfA?.text],
      name,
    );
    expect(await replicaB.find(never?.sha256 ?? "")).toBeUndefined();
    expect(lines).toEqual([]);
  });
});
