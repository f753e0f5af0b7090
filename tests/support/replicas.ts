import { join } from "node:path";
import { emailJsAppEnv, type FakeEmailJs, type RecordedRequest } from "./fake-emailjs";
import { leadsCli } from "./lead-fixtures";
import { type RoundRobinProxy, startRoundRobinProxy } from "./round-robin-proxy";
import { databaseReady, type RunningServer, startServer } from "./server-process";

/** Every replica signs and reads the others' success notices with this key. */
export const SHARED_NOTICE_SECRET = "replica-tests-notice-secret-0123456789abcdef";

export interface Replica {
  /** E.g. `replica-1`: its PostgreSQL `application_name`, and the EmailJS public key it sends with. */
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

export interface ReplicaOptions {
  databaseUrl: string;
  fake: FakeEmailJs;
  /** The replica's data folder is `<folder>/<name>`. */
  folder: string;
  env?: Record<string, string>;
  node?: string;
  /** The folder of the build to run (its `build/server.js`): this checkout by default, or a previous release's. */
  cwd?: string;
}

/**
 * One built server named `name` on the database, with a data folder of its own, one
 * NOTICE_SECRET, trusting a proxy on 127.0.0.1, delivering to the HTTPS EmailJS fake at a 50 ms
 * pace. It names itself in `pg_stat_activity` (`application_name`) and to EmailJS (its public
 * key), so a test can cut its connections or see which replica sent a lead. Resolves once its
 * database is ready and its first page rendered.
 */
export async function startReplica(name: string, options: ReplicaOptions): Promise<Replica> {
  const folder = join(options.folder, name);
  const server = await startServer({
    node: options.node,
    cwd: options.cwd,
    env: {
      ...emailJsAppEnv(options.fake, folder),
      EMAILJS_PUBLIC_KEY: name,
      DATABASE_URL: replicaUrl(options.databaseUrl, name),
      TRUST_PROXY: "127.0.0.1",
      NOTICE_SECRET: SHARED_NOTICE_SECRET,
      ...options.env,
    },
  });
  try {
    await databaseReady(server.url);
    // The first visit of a shared page renders and compresses it (seconds on a busy machine), as
    // after any deploy; tests time the pages that follow.
    await (await fetch(`${server.url}/`)).arrayBuffer();
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { name, folder, server };
}

/** The replica that sent `request` to the fake EmailJS (by the public key it sent). */
export const sentBy = (request: RecordedRequest): string =>
  (request.body as { user_id?: string }).user_id ?? "unknown";

/**
 * `count` replicas (`startReplica`) of this checkout's build on one database, behind a
 * round-robin proxy that sets `X-Forwarded-For`.
 */
export async function startReplicas(
  options: Omit<ReplicaOptions, "cwd"> & { count: number },
): Promise<ReplicaSet> {
  const started = await Promise.allSettled(
    Array.from({ length: options.count }, (_, index) => startReplica(`replica-${index + 1}`, options)),
  );
  const replicas = started.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
  const failed = started.find((outcome) => outcome.status === "rejected");
  if (failed) {
    await Promise.all(replicas.map((replica) => replica.server.stop()));
    throw failed.reason;
  }
  const proxy = await startRoundRobinProxy(replicas.map((replica) => replica.server.url));
  return {
    replicas,
    proxy,
    sentBy,
    async stop() {
      await proxy.stop();
      await Promise.all(replicas.map((replica) => replica.server.stop()));
    },
  };
}

/** A lead as `npm run leads -- --json` prints it: what the tests read of it. */
export interface LeadJson {
  id: string;
  name: string;
  state: string;
  /** Each destination's record; absent from a release before destinations. */
  destinations?: Record<string, { state: string; attempts: number; lastError: string | null }>;
}

/**
 * Every lead (quarantine aside) as the operator's `npm run leads -- --json` reads it from the
 * database: this checkout's build, or the one in folder `build` (a previous release's).
 */
export async function leadsInDatabase(
  databaseUrl: string,
  folder: string,
  build?: string,
): Promise<LeadJson[]> {
  const { stdout } = await leadsCli(
    join(folder, "operator"),
    ["--json"],
    { DATABASE_URL: databaseUrl },
    build,
  );
  return stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as LeadJson);
}

/** `url` with `application_name` set to the replica's name (pg reads it from the URL). */
export function replicaUrl(url: string, name: string): string {
  const named = new URL(url);
  named.searchParams.set("application_name", name);
  return named.href;
}
