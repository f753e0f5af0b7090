/**
 * Where servers record which success-notice tokens were claimed: the NoticeClaims contract and its
 * PostgreSQL record.
 */
import type { Database } from "~/db/database.server";
import { describeDatabaseError } from "~/db/error-words.server";
import { within } from "~/db/within.server";

/**
 * Where servers record which token ids were claimed. `unmarked`: the record could not be
 * written (already logged); the claim then holds on this server only.
 */
export interface NoticeClaims {
  mark(id: string, expiresAt: number): Promise<"marked" | "taken" | "unmarked">;
  sweep(): Promise<void>;
}

/** How long a landing page waits for its claim's row before showing the notice anyway. */
const CLAIM_WAIT_MS = 1_000;

/**
 * The success notices' claims as rows of `notice_claims`: the first INSERT of a token id wins,
 * on whichever replica it runs. While the database is unreachable (or slower than
 * CLAIM_WAIT_MS) the notice is shown, held single-use by this replica's memory only: a sender
 * who is not told their enquiry arrived sends it again, while a second showing of "sent" on a
 * reload tells nobody anything new. The outage itself is logged by the database.
 */
export function createPostgresNoticeClaims(database: Database, log: (line: string) => void): NoticeClaims {
  return {
    async mark(id, expiresAt) {
      if (database.state().status !== "ok") return "unmarked";
      const inserted = database
        .query(
          `INSERT INTO notice_claims (id, expires_at) VALUES ($1, to_timestamp($2::double precision / 1000))
           ON CONFLICT (id) DO NOTHING`,
          [id, expiresAt],
        )
        .then((result) => (result.rowCount === 1 ? "marked" : "taken"))
        .catch((error: unknown) => {
          if (error instanceof Error && error.name !== "DatabaseUnavailableError") {
            log(
              `notices: cannot record a claim in the database (${describeDatabaseError(error)}); the notice is shown`,
            );
          }
          return "unmarked" as const;
        });
      return within(inserted, CLAIM_WAIT_MS, "unmarked");
    },
    async sweep() {
      if (database.state().status !== "ok") return;
      // A minute past expiry: a token checked just before it expired still finds its claim.
      await database.query("DELETE FROM notice_claims WHERE expires_at < now() - interval '1 minute'");
    },
  };
}
