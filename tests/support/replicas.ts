import { join } from "node:path";
import { emailJsAppEnv, type FakeEmailJs, type RecordedRequest } from "../../scripts/lib/fake-emailjs";
import { databaseReady, type RunningServer, startServer } from "../../scripts/lib/server-process";
import { type RoundRobinProxy, startRoundRobinProxy } from "./round-robin-proxy";

/** Every replica signs and reads the others' success notices with this key. */
export const SHARED_NOTICE_SECRET = "replica-tests-notice-secret-0123456789abcdef";

export interface Replica {
  /** `replica-<n>`: its PostgreSQL `application_name`, and the EmailJS public key it sends with. */
  name: string;
  /** Its own data folder (ENQUIRY_STORE_DIR), as a platform gives each container its own disk. */
  folder: string;
  server: RunningServer;
}

export interface ReplicaSet {
  replicas: Replica[];
  proxy: RoundRobinProxy;
  /** The replica that sent `request` to the fake EmailJS (by the public key it sent). */
  sentBy(request: RecordedRequest): string;
  stop(): Promise<void>;
}

/**
 * `count` built servers on one database, each with a data folder of its own, behind a
 * round-robin proxy that sets `X-Forwarded-For` (`TRUST_PROXY=127.0.0.1`), with one
 * NOTICE_SECRET, delivering to the HTTPS EmailJS fake at a 50 ms pace. Each names itself in
 * `pg_stat_activity` (`application_name`) and to EmailJS (its public key), so a test can cut
 * one replica's connections or see which replica sent a lead.
 */
export async function startReplicas(options: {
  count: number;
  databaseUrl: string;
  fake: FakeEmailJs;
  folder: string;
  env?: Record<string, string>;
  node?: string;
}): Promise<ReplicaSet> {
  const replicas = await Promise.all(
    Array.from({ length: options.count }, async (_, index): Promise<Replica> => {
      const name = `replica-${index + 1}`;
      const folder = join(options.folder, name);
      const server = await startServer({
        node: options.node,
        env: {
          ...emailJsAppEnv(options.fake, folder),
          EMAILJS_PUBLIC_KEY: name,
          DATABASE_URL: replicaUrl(options.databaseUrl, name),
          TRUST_PROXY: "127.0.0.1",
          NOTICE_SECRET: SHARED_NOTICE_SECRET,
          ...options.env,
        },
      });
      return { name, folder, server };
    }),
  );
  try {
    await Promise.all(replicas.map((replica) => databaseReady(replica.server.url)));
  } catch (error) {
    await Promise.all(replicas.map((replica) => replica.server.stop()));
    throw error;
  }
  // The first visit of a shared page renders and compresses it (seconds on a busy machine), as
  // after any deploy; tests time the pages that follow.
  await Promise.all(replicas.map(async (replica) => (await fetch(`${replica.server.url}/`)).arrayBuffer()));
  const proxy = await startRoundRobinProxy(replicas.map((replica) => replica.server.url));
  return {
    replicas,
    proxy,
    sentBy: (request) => (request.body as { user_id?: string }).user_id ?? "unknown",
    async stop() {
      await proxy.stop();
      await Promise.all(replicas.map((replica) => replica.server.stop()));
    },
  };
}

/** `url` with `application_name` set to the replica's name (pg reads it from the URL). */
export function replicaUrl(url: string, name: string): string {
  const named = new URL(url);
  named.searchParams.set("application_name", name);
  return named.href;
}
