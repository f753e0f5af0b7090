/**
 * Issues the success notice's token and shows its notice once, whichever server the sender reaches.
 *
 * The success notice after an enquiry travels in the URL the sender is redirected to, not in a
 * cookie: a cache in front that keys by URL and forwards no cookies must still let it through.
 * The URL carries a token `<id>.<expiry>.<reference>.<mac>`: 128 random bits, the expiry in
 * seconds (base 36), the enquiry's reference (`NRM-7KQ2-M9XD`), and an HMAC-SHA256 of the three
 * under NOTICE_SECRET, so editing the URL forges nothing. A token of the release before the
 * reference (`<id>.<expiry>.<mac>`) still shows its notice, without one
 * (docs/decisions/039-enquiry-reference.md). A token shows its notice once: the first GET claims its id, in memory and in the
 * replicated record (held by every server): a row in PostgreSQL with DATABASE_URL, otherwise a marker file created O_EXCL in
 * `notices/` of the data folder; servers that share it (and NOTICE_SECRET) never show one notice
 * twice. Claims are swept once their token expired: after a redemption, and by the server on a
 * timer (SWEEP_INTERVAL_MS).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Dir } from "node:fs";
import { lstat, mkdir, open, opendir, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { Database } from "~/db/database.server";
import { createPostgresNoticeClaims, type NoticeClaims } from "~/enquiry/notice-claims.server";
import { NOTICE_PARAMETER, type NoticeOutcome } from "~/enquiry/notices";
import { REFERENCE } from "~/lead-parts/reference";

/** How long a landing URL holds its notice: browsers follow the redirect at once; minutes allow for a slow load. */
export const NOTICE_TTL_MS = 5 * 60_000;

/** Claims kept in memory at most (only tokens this server issued and saw redeemed within their lifetime). */
const MAX_CLAIMS = 10_000;
const SWEEP_EVERY_MS = 60_000;
/** How often the server sweeps markers on its own, when no redemption does. */
export const SWEEP_INTERVAL_MS = 60 * 60_000;

const ID = /^[A-Za-z0-9_-]{22}$/;
/** `<id>.<expiry>.<reference>.<mac>`; the reference is absent from a token of the release before it. */
const TOKEN =
  /^([A-Za-z0-9_-]{22})\.([0-9a-z]{1,10})\.(?:(NRM-[0-9A-Z]{4}-[0-9A-Z]{4})\.)?([A-Za-z0-9_-]{22})$/;

export interface SentNotices {
  /** Where a sender lands after a successful enquiry: the home page's form, with a fresh token carrying `reference`. */
  landingUrl(reference: string): string;
  /** The notice a landing URL's token stands for, the first time it is read; null for anything else. */
  redeem(token: string | null): Promise<NoticeOutcome | null>;
  /** Removes the replicated claims of tokens that have expired (the server calls it on a timer). */
  sweep(): Promise<void>;
}

export interface SentNoticeOptions {
  /** NOTICE_SECRET; without it, a random key of this process (and one log line saying so). */
  secret: string | undefined;
  /** The data folder (ENQUIRY_STORE_DIR): markers of used tokens go to its `notices/`. */
  storeDir: string;
  /** With DATABASE_URL: claims are rows in PostgreSQL instead of files in the data folder. */
  database?: Database | null;
  now?: () => number;
  log?: (line: string) => void;
}

export function createSentNotices({
  secret,
  storeDir,
  database = null,
  now = Date.now,
  log = console.error,
}: SentNoticeOptions): SentNotices {
  if (secret === undefined) {
    log(
      "config: NOTICE_SECRET is not set, so the success notice after an enquiry sent without JavaScript is signed with a random key of this process, and a repeated enquiry's lead id is this server's own; with more than one server behind the site, set NOTICE_SECRET to one random value (32 characters or more) on every server",
    );
  }
  const key = secret ?? randomBytes(32).toString("base64");
  // v1: the release before the reference, whose tokens still show their notice.
  const mac = (id: string, expires: string, reference?: string) =>
    createHmac("sha256", key)
      .update(
        reference === undefined
          ? `enquiry-notice.v1.${id}.${expires}`
          : `enquiry-notice.v2.${id}.${expires}.${reference}`,
      )
      .digest()
      .subarray(0, 16)
      .toString("base64url");
  const replicated = database
    ? createPostgresNoticeClaims(database, log)
    : createFolderNoticeClaims(join(storeDir, "notices"), now, log);
  const claims = createClaims(replicated, now);

  return {
    landingUrl(reference) {
      if (!REFERENCE.test(reference)) throw new Error(`not an enquiry reference: ${reference}`);
      const id = randomBytes(16).toString("base64url");
      const expires = Math.ceil((now() + NOTICE_TTL_MS) / 1000).toString(36);
      return `/?${NOTICE_PARAMETER}=${id}.${expires}.${reference}.${mac(id, expires, reference)}#contact`;
    },
    async redeem(token) {
      const [, id = "", expires = "", reference, given = ""] = TOKEN.exec(token ?? "") ?? [];
      if (id === "") return null;
      // The MAC's text is compared, not its bytes: base64 has several spellings of the last bits.
      if (!timingSafeEqual(Buffer.from(given), Buffer.from(mac(id, expires, reference)))) return null;
      const expiresAt = Number.parseInt(expires, 36) * 1000;
      if (!(expiresAt > now())) return null;
      if (!(await claims.claim(id, expiresAt))) return null;
      return reference === undefined ? { kind: "sent", id } : { kind: "sent", id, reference };
    },
    sweep: () => replicated.sweep(),
  };
}

/** Single use of token ids: in memory first, then in the replicated record. */
function createClaims(replicated: NoticeClaims, now: () => number) {
  const claimed = new Map<string, number>();
  let lastSweep = 0;

  return {
    async claim(id: string, expiresAt: number): Promise<boolean> {
      for (const [known, until] of claimed) {
        if (until > now() && claimed.size < MAX_CLAIMS) break;
        claimed.delete(known);
      }
      if (claimed.has(id)) return false;
      // Claimed in memory before the first await: a second request for the same URL loses at once.
      claimed.set(id, expiresAt);
      if ((await replicated.mark(id, expiresAt)) === "taken") return false;
      if (now() - lastSweep >= SWEEP_EVERY_MS) {
        lastSweep = now();
        replicated.sweep().catch(() => {});
      }
      return true;
    },
  };
}

/** Marker files in `dir`, for the servers that share the data folder. */
function createFolderNoticeClaims(dir: string, now: () => number, log: (line: string) => void): NoticeClaims {
  let warned = false;

  /** "taken" when another request (on any server sharing the folder) claimed the id first. */
  async function mark(id: string, retry = true): Promise<"marked" | "taken" | "unmarked"> {
    try {
      await (await open(join(dir, id), "wx")).close();
      warned = false;
      return "marked";
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return "taken";
      if (code === "ENOENT" && retry) {
        await mkdir(dir, { recursive: true }).catch(() => {});
        return mark(id, false);
      }
      if (!warned) {
        warned = true;
        log(
          `notices: cannot write ${dir} (${code ?? String(error)}); until it can, a success notice's URL is single-use on this server only, not across servers sharing ENQUIRY_STORE_DIR`,
        );
      }
      return "unmarked";
    }
  }

  /** Markers of tokens that have expired anyway; each entry is removed or left on its own. */
  async function sweep(): Promise<void> {
    const oldest = now() - NOTICE_TTL_MS - SWEEP_EVERY_MS;
    let entries: Dir;
    try {
      entries = await opendir(dir);
    } catch {
      return; // No folder yet (or none readable): nothing to sweep.
    }
    for await (const entry of entries) {
      if (!ID.test(entry.name)) continue;
      const path = join(dir, entry.name);
      try {
        const stats = await lstat(path);
        if (stats.isFile() && stats.mtimeMs < oldest) await unlink(path);
      } catch {
        // Gone already (another server swept it) or not ours to remove: the next sweep sees.
      }
    }
  }

  return { mark: (id) => mark(id), sweep };
}
