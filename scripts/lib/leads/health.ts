/** `npm run leads -- --health`: the store's state as it shows itself, without the server. */
import type { Database } from "~/db/database.server";
import { env } from "~/env.server";
import { MAX_LEADS } from "~/leads/contract.server";
import { delivererLockPath, readFolderLockHolder } from "~/leads/folder/lock.server";
import { describeLeads } from "~/leads/health-report";
import { readPostgresLockHolder } from "~/leads/postgres/lock.server";
import { createLeadSpool, spoolFolder } from "~/leads/spool.server";
import { showInvisible } from "~/text/invisible-characters";
import { type LeadsCommand, plural } from "./output";

/** What the store itself tells, without the server: a write probe, the counts, the deliverer. */
export async function health({ store, database }: LeadsCommand) {
  const written = await store.probe();
  const counts = await store.counts();
  const spool = createLeadSpool({ folder: spoolFolder(env.ENQUIRY_STORE_DIR) });
  const spooled = await spool.count();
  const { store: state, leads } = describeLeads({ counts, lastWrite: written, maxLeads: MAX_LEADS, spooled });
  console.log(
    `store: ${state}${written.ok ? "" : ` (a test write failed: ${written.error})`} in ${store.folder}`,
  );
  console.log(
    `leads: ${leads.pending} pending${leads.pending > 0 ? ` (oldest ${leads.oldestPendingSeconds} s)` : ""}, ${leads.failed} failed, ${counts.inbox} inbox, ${counts.sent} sent, ${leads.spam} in the quarantine`,
  );
  // The spool of this data folder only: each replica has its own (its /healthz counts it).
  if (database || spooled > 0) {
    console.log(
      `spool: ${plural(spooled, "lead")} in ${spool.folder} waiting for the database${spooled > 0 ? (database ? " (a server running on this data folder moves them in)" : ": set DATABASE_URL and start the server to move them in") : ""}`,
    );
  }
  console.log(database ? await databaseDeliverer(database) : await folderDeliverer(store.folder));
  if (state === "unusable") process.exitCode = 1;
}

async function folderDeliverer(folder: string) {
  const holder = await readFolderLockHolder(delivererLockPath(folder));
  return holder
    ? `delivery: held by process ${showInvisible(holder.token) || "(unnamed)"}${holder.since ? ` since ${showInvisible(holder.since)}` : ""}, heartbeat ${(holder.heartbeatAgeMs / 1000).toFixed(1)} s ago${holder.stale ? " (stale: the next server to look takes over)" : ""}`
    : "delivery: no process holds the lock (no server running on this folder)";
}

async function databaseDeliverer(connected: Database) {
  const holder = await readPostgresLockHolder(connected);
  return holder
    ? `delivery: held by database connection ${holder.pid} from ${holder.client}, connected since ${holder.since}`
    : "delivery: no replica holds the deliverer lock (no server running on this database)";
}
