/** The PostgreSQL store's deliverer lock: a session advisory lock on a connection of its own. */
import type { PoolClient } from "pg";
import { DELIVERER_LOCK } from "~/db/advisory-locks.server";
import type { Database } from "~/db/database.server";
import type { DelivererLock } from "~/leads/deliverer-lock";

/**
 * One deliverer for every replica on the database: whoever holds a PostgreSQL session advisory
 * lock, on a connection of its own kept out of the pool's rotation. PostgreSQL frees the lock
 * the moment that connection ends (the replica killed, its connection terminated), and another
 * replica's next `acquire` gets it: no clock, heartbeat file or staleness rule decides.
 */
export function createPostgresDelivererLock(database: Database): DelivererLock {
  let held: PoolClient | null = null;
  let cut = false;
  // A connection cut while it is out of the pool emits here; without a listener the process would crash.
  const onError = () => {
    cut = true;
  };

  const drop = (client: PoolClient, broken: boolean) => {
    if (held === client) held = null;
    client.removeListener("error", onError);
    client.release(broken ? true : undefined);
  };

  /** Whether the lock's connection still answers (and so still holds the lock); one check at a time. */
  let checking: Promise<boolean> | undefined;
  const alive = () => {
    checking ??= check().finally(() => {
      checking = undefined;
    });
    return checking;
  };
  const check = async () => {
    const client = held;
    if (!client) return false;
    if (cut) {
      drop(client, true);
      return false;
    }
    try {
      await client.query("SELECT 1");
      return true;
    } catch {
      drop(client, true);
      return false;
    }
  };

  return {
    async acquire() {
      if (held) return alive();
      if (database.state().status !== "ok") return false;
      const client = await database.pool.connect();
      cut = false;
      client.on("error", onError);
      try {
        const { rows } = await client.query<{ held: boolean }>("SELECT pg_try_advisory_lock($1) AS held", [
          DELIVERER_LOCK,
        ]);
        if (rows[0]?.held) {
          held = client;
          return true;
        }
        drop(client, false);
        return false;
      } catch (error) {
        drop(client, true);
        throw error;
      }
    },
    heartbeat: alive,
    holds: alive,
    async release() {
      const client = held;
      if (!client) return;
      try {
        await client.query("SELECT pg_advisory_unlock($1)", [DELIVERER_LOCK]);
        drop(client, false);
      } catch {
        drop(client, true);
      }
    },
  };
}

/** Who holds the deliverer lock, as PostgreSQL tells it; null when no replica does. */
export async function readPostgresLockHolder(
  database: Database,
): Promise<{ pid: number; client: string; since: string } | null> {
  const { rows } = await database.query<{ pid: number; client: string | null; since: Date | null }>(
    `SELECT l.pid, host(a.client_addr) AS client, a.backend_start AS since
     FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
       AND l.classid = ($1::bigint >> 32)::oid AND l.objid = ($1::bigint & 4294967295)::oid`,
    [DELIVERER_LOCK],
  );
  const row = rows[0];
  return row ? { pid: row.pid, client: row.client ?? "local", since: row.since?.toISOString() ?? "" } : null;
}
