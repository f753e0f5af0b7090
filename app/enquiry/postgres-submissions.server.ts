/** The double-submit memory replicated in PostgreSQL: one row per enquiry, held by every replica. */
import { createHmac } from "node:crypto";
import type { Database } from "~/db/database.server";
import type { Enquiry } from "~/lead-parts/enquiry";

/** How long a replica's claim on a submission holds while its enquiry is being kept or sent. */
const CLAIM_LEASE_MS = 20_000;
/** How often a replica waiting on another's claim looks again. */
const WAIT_STEP_MS = 100;

type Outcome<T> = { result: T; duplicate: boolean };

interface Submission<T> {
  fingerprint: string;
  task: () => Promise<T>;
  /** Whether an outcome is remembered; anything else is forgotten, so a retry runs again. */
  keep: (result: T) => boolean;
  /** Whether a remembered outcome still stands (false once its lead was erased). */
  stillHolds: (result: T) => Promise<boolean>;
  ttlMs: number;
}

/**
 * The double-submit memory of every replica together: one row of `submissions` per enquiry,
 * keyed by its fingerprint (an HMAC of its content under the database's own salt: nothing
 * about the person). The first replica to insert the row runs the enquiry; another one that
 * receives the same enquiry meanwhile waits for that outcome (or for the claim's lease to pass,
 * when its replica died) and answers with it. A kept outcome stands for `ttlMs`, unless
 * `stillHolds` says its lead was erased: then the row is dropped and the enquiry runs again.
 * `null`: the database cannot be used now; the caller runs the enquiry on its own memory.
 */
export interface PostgresSubmissions {
  /** The salt fingerprints are made with, once the database is ready; null before. */
  salt(): string | null;
  /** `enquiry`'s fingerprint within `scope` (kept, or a filter's reason); null while unusable. */
  fingerprint(scope: string, enquiry: Enquiry): string | null;
  run<T>(submission: Submission<T>): Promise<Outcome<T> | null>;
  /** Deletes rows whose time has passed (the server calls it hourly). */
  sweep(): Promise<void>;
}

export function createPostgresSubmissions(database: Database): PostgresSubmissions {
  let salt: string | null = null;
  database
    .ready()
    .then(() => database.query<{ salt: string }>("SELECT salt FROM site_salts WHERE name = 'submission'"))
    .then(({ rows }) => {
      salt = rows[0]?.salt ?? null;
    })
    .catch(() => {});

  const usable = () => salt !== null && database.state().status === "ok";

  return {
    salt: () => (usable() ? salt : null),
    fingerprint(scope, enquiry) {
      if (!usable() || salt === null) return null;
      return createHmac("sha256", salt)
        .update(`${scope}\n${JSON.stringify(enquiry)}`)
        .digest("base64url");
    },
    async run<T>({ fingerprint, task, keep, stillHolds, ttlMs }: Submission<T>): Promise<Outcome<T> | null> {
      for (;;) {
        if (!usable()) return null;
        let claimed: boolean;
        let row: { result: unknown; live: boolean } | undefined;
        try {
          claimed =
            (
              await database.query(
                `INSERT INTO submissions (fingerprint, outcome, expires_at)
                 VALUES ($1, 'running', now() + $2 * interval '1 millisecond')
                 ON CONFLICT (fingerprint) DO NOTHING`,
                [fingerprint, CLAIM_LEASE_MS],
              )
            ).rowCount === 1;
          if (!claimed) {
            const found = await database.query<{ outcome: string; result: unknown; live: boolean }>(
              "SELECT outcome, result, expires_at > now() AS live FROM submissions WHERE fingerprint = $1",
              [fingerprint],
            );
            const current = found.rows[0];
            row = current && {
              result: current.outcome === "running" ? undefined : current.result,
              live: current.live,
            };
          }
        } catch {
          return null;
        }
        if (claimed)
          return { result: await runClaimed(database, fingerprint, task, keep, ttlMs), duplicate: false };
        if (row === undefined) continue;
        if (!row.live) {
          // A kept outcome past its time, or the lease of a replica that died while running it.
          await database
            .query("DELETE FROM submissions WHERE fingerprint = $1 AND expires_at <= now()", [fingerprint])
            .catch(() => {});
          continue;
        }
        if (row.result === undefined) {
          await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
          continue;
        }
        const earlier = row.result as T;
        if (await stillHolds(earlier)) return { result: earlier, duplicate: true };
        // Its lead was erased: the enquiry is new again.
        await database
          .query("DELETE FROM submissions WHERE fingerprint = $1 AND outcome = 'kept'", [fingerprint])
          .catch(() => {});
      }
    },
    async sweep() {
      if (!usable()) return;
      await database.query("DELETE FROM submissions WHERE expires_at < now()").catch(() => {});
    },
  };
}

/** Runs the enquiry this replica claimed; keeps its outcome for `ttlMs`, or frees the claim. */
async function runClaimed<T>(
  database: Database,
  fingerprint: string,
  task: () => Promise<T>,
  keep: (result: T) => boolean,
  ttlMs: number,
): Promise<T> {
  let result: T;
  try {
    result = await task();
  } catch (error) {
    await database.query("DELETE FROM submissions WHERE fingerprint = $1", [fingerprint]).catch(() => {});
    throw error;
  }
  const kept = keep(result);
  await database
    .query(
      kept
        ? `UPDATE submissions SET outcome = 'kept', result = $2, expires_at = now() + $3 * interval '1 millisecond'
           WHERE fingerprint = $1`
        : "DELETE FROM submissions WHERE fingerprint = $1",
      kept ? [fingerprint, JSON.stringify(result), ttlMs] : [fingerprint],
    )
    .catch(() => {});
  return result;
}
