/**
 * Every privacy notice text this site has rendered, kept where every server and every later
 * release reads it: a file each in the data folder's `privacy-notices/`, or a row each of
 * `privacy_notice_renderings` with DATABASE_URL (docs/decisions/028-notice-record-of-the-text-shown.md).
 *
 * A server records its own renderings (the current version in each language, filled with its
 * configuration) when it starts, and tries again every minute until they are written; one that
 * is already there stays as it is. An enquiry's posted hash is then looked up: this server's own
 * renderings first, then the record, where a page served by another server, by this one before a
 * restart with other settings or by an earlier release (a CDN's stale copy) finds its text.
 */
import { randomUUID } from "node:crypto";
import { link, mkdir, open, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import { type Database, DatabaseUnavailableError } from "~/db/database.server";
import { within } from "~/db/within.server";
import { fsyncFolder } from "~/leads/folder/writes.server";
import { parsePrivacyNoticeRecord } from "~/privacy-notice/record";
import { type PrivacyNoticeRendering, privacyNoticeSha256 } from "~/privacy-notice/rendering.server";

/** The data folder's subfolder of renderings, one `<sha256>.json` each. */
export const RENDERINGS_FOLDER = "privacy-notices";

/** How long an enquiry waits for the record's answer before it is kept without a privacy notice record. */
const LOOKUP_MS = 1_000;
/** How often renderings that could not be written are tried again. */
const RECORD_RETRY_MS = 60_000;
/** Renderings of other servers kept in memory once found (they never change; there are few). */
const MAX_REMEMBERED = 1_000;

const SHA256_HEX = /^[0-9a-f]{64}$/;

export interface PrivacyNoticeRenderings {
  /** Records this server's renderings now, once the database is ready, and every minute until written. */
  start(): void;
  /** Stops the retries; resolves once a write under way has ended, so nothing writes after it. */
  stop(): Promise<void>;
  /**
   * The rendering whose SHA-256 is `sha256` when this site rendered it: one of this server's, or
   * one any server recorded; undefined for any other value, or when the record cannot answer
   * within LOOKUP_MS.
   */
  find(sha256: string): Promise<PrivacyNoticeRendering | undefined>;
}

/** Where renderings are kept: what `read` gives back is checked by the caller, never trusted. */
interface RenderingRecord {
  /** Named in log lines. */
  where: string;
  write(rendering: PrivacyNoticeRendering): Promise<void>;
  /** The stored rendering of `sha256`, undefined when there is none. */
  read(sha256: string): Promise<unknown>;
}

export function createPrivacyNoticeRenderings(options: {
  /** What this server renders (~/privacy-notice/rendering.server). */
  own: readonly PrivacyNoticeRendering[];
  /** The data folder (ENQUIRY_STORE_DIR), when there is no database. */
  storeDir: string;
  database: Database | null;
  log?: (line: string) => void;
  /** How often renderings not yet written are tried again (RECORD_RETRY_MS). */
  retryMs?: number;
}): PrivacyNoticeRenderings {
  const { own, database, log = console.error, retryMs = RECORD_RETRY_MS } = options;
  const record = database
    ? postgresRecord(database)
    : folderRecord(join(options.storeDir, RENDERINGS_FOLDER));
  const known = new Map(own.map((rendering) => [rendering.sha256, rendering]));
  const writeFault = faultReport(log);
  const readFault = faultReport(log);
  let written = false;
  let writing: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;

  const writeOwn = (): Promise<void> | undefined => {
    if (written || writing) return writing;
    writing = (async () => {
      try {
        for (const rendering of own) await record.write(rendering);
        written = true;
        clearInterval(retry);
        writeFault.cleared(`privacy notice: recorded the text this server shows in ${record.where}`);
      } catch (error) {
        writeFault.said(
          error,
          (cause) =>
            `privacy notice: cannot record the text this server shows in ${record.where} (${cause}); an enquiry from this server's page that another server or a later release takes is kept without its privacy notice record until it can (tried again every minute)`,
        );
      } finally {
        writing = undefined;
      }
    })();
    return writing;
  };

  return {
    start() {
      void writeOwn();
      database?.ready().then(writeOwn, () => {});
      retry = setInterval(writeOwn, retryMs).unref();
    },
    async stop() {
      clearInterval(retry);
      await writing;
    },
    async find(sha256) {
      const mine = known.get(sha256);
      if (mine) return mine;
      if (!SHA256_HEX.test(sha256)) return undefined;
      const read = record.read(sha256).then(
        (value) => {
          readFault.cleared(`privacy notice: ${record.where} can be read again`);
          return value;
        },
        (error: unknown) => {
          readFault.said(
            error,
            (cause) =>
              `privacy notice: cannot read ${record.where} (${cause}); an enquiry from a page another server or an earlier release served is kept without its privacy notice record until it can`,
          );
          return undefined;
        },
      );
      const found = renderingFrom(await within(read, LOOKUP_MS, undefined), sha256);
      if (found === undefined) return undefined;
      if (known.size < own.length + MAX_REMEMBERED) known.set(sha256, found);
      return found;
    },
  };
}

/** A stored value as a rendering of `sha256`: labels the site writes, and a text that hashes to it. */
function renderingFrom(value: unknown, sha256: string): PrivacyNoticeRendering | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { version, language, text } = value as Record<string, unknown>;
  if (typeof text !== "string" || privacyNoticeSha256(text) !== sha256) return undefined;
  const labels = parsePrivacyNoticeRecord({ version, language, sha256 });
  return labels && { ...labels, text };
}

/**
 * One log line when the record fails, again only when the cause changes, and one when it works
 * again. The database's own outages are its own log lines (~/db/database.server): not said twice.
 */
function faultReport(log: (line: string) => void) {
  let last: string | undefined;
  return {
    said(error: unknown, line: (cause: string) => string) {
      if (error instanceof DatabaseUnavailableError) return;
      const code = (error as { code?: unknown } | null)?.code;
      const cause = typeof code === "string" ? code : error instanceof Error ? error.name : String(error);
      if (cause === last) return;
      last = cause;
      log(line(cause));
    },
    cleared(line: string) {
      if (last === undefined) return;
      last = undefined;
      log(line);
    },
  };
}

/**
 * `<sha256>.json` in `dir`: written to a temporary file, fsync'd, then linked to its name, which
 * fails rather than replace one already there (another server's, the same words), so a file is
 * whole or absent.
 */
function folderRecord(dir: string): RenderingRecord {
  const fileOf = (sha256: string) => join(dir, `${sha256}.json`);
  return {
    where: dir,
    async write(rendering) {
      const path = fileOf(rendering.sha256);
      if (renderingFrom(await readJson(path).catch(() => undefined), rendering.sha256)) return;
      await mkdir(dir, { recursive: true });
      const temporary = join(dir, `.tmp-${randomUUID()}`);
      const handle = await open(temporary, "wx", 0o600);
      try {
        const { version, language, sha256, text } = rendering;
        await handle.writeFile(
          `${JSON.stringify({ version, language, sha256, text, recordedAt: new Date().toISOString() }, null, 2)}\n`,
        );
        await handle.sync();
      } finally {
        await handle.close();
      }
      try {
        await link(temporary, path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      } finally {
        await unlink(temporary).catch(() => {});
      }
      await fsyncFolder(dir);
    },
    read: (sha256) => readJson(fileOf(sha256)),
  };
}

/** The JSON of the file at `path`; undefined when there is no such file (or it is not JSON). */
async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Rows of `privacy_notice_renderings` (migration 0005): the first INSERT of a hash stays. */
function postgresRecord(database: Database): RenderingRecord {
  return {
    where: "the database (privacy_notice_renderings)",
    async write({ sha256, version, language, text }) {
      await database.query(
        `INSERT INTO privacy_notice_renderings (sha256, version, language, text) VALUES ($1, $2, $3, $4)
         ON CONFLICT (sha256) DO NOTHING`,
        [sha256, version, language, text],
      );
    },
    async read(sha256) {
      if (database.state().status !== "ok") return undefined;
      const { rows } = await database.query<{ version: string; language: string; text: string }>(
        "SELECT version, language, text FROM privacy_notice_renderings WHERE sha256 = $1",
        [sha256],
      );
      return rows[0];
    },
  };
}
