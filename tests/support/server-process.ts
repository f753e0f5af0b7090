/**
 * Starts and stops the built server as a child process for tests and benchmarks, and reads its
 * `/healthz`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, isIPv6 } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stopProcess } from "../../scripts/lib/stop-process";

export interface RunningServer {
  url: string;
  port: number;
  process: ChildProcess;
  pid: number | undefined;
  /** Everything the server printed, stdout and stderr interleaved. */
  output: () => string;
  stop: () => Promise<void>;
}

/** The HEALTH_TOKEN test servers get, so a test can read the details of `/healthz`. */
export const TEST_HEALTH_TOKEN = "test-health-token-4f2a9c1e";

export interface HealthDetails {
  status: string;
  uptime: number;
  draining: boolean;
  store: "ok" | "unusable" | "full";
  /** `spooled`: leads waiting in the server's spool for the database (DATABASE_URL). */
  leads: { pending: number; failed: number; oldestPendingSeconds: number; spam: number; spooled: number };
  /** Delivery outcomes the store has not taken yet, waiting in the server's memory. */
  unwrittenOutcomes: number;
  /** The render-once cache: pages kept, and pages rendered since the server started. */
  sharedDocuments: { entries: number; rendered: number };
}

/** `/healthz` with its details, as a monitor holding HEALTH_TOKEN reads it. */
export async function healthDetails(url: string): Promise<HealthDetails> {
  const response = await fetch(`${url}/healthz`, {
    headers: { Authorization: `Bearer ${TEST_HEALTH_TOKEN}` },
  });
  return (await response.json()) as HealthDetails;
}

/** The database state in `/healthz` details: `"ok"`, `"none"` without one, or why it is not ready. */
export function databaseStatus(details: object): string {
  const database = (details as { database?: string | { state: string; cause?: string } }).database;
  if (typeof database === "string" || database === undefined) return database ?? "none";
  return `${database.state}${database.cause ? `: ${database.cause}` : ""}`;
}

/** Resolves once the server's `/healthz` details say its database is connected and migrated. */
export async function databaseReady(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let status = "";
  while (Date.now() < deadline) {
    status = databaseStatus(await healthDetails(url));
    if (status === "ok") return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the database of ${url} is not ready after ${timeoutMs / 1000} s: ${status}`);
}

export async function freePort(host = "127.0.0.1"): Promise<number> {
  const server = createServer();
  server.listen(0, host);
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * Starts the built server the way production does (`node build/server.js`, on `node`: the
 * Node binary to run, this process's own by default) with the given environment (on `HOST`,
 * 127.0.0.1 by default, which `url` names), and resolves once `/healthz` answers. `quiet` drops the request log (a
 * benchmark should not pay a pipe write per request); stderr is always kept. Without an
 * `ENQUIRY_STORE_DIR` of the caller's, leads go to a temporary folder removed at `stop()`, never
 * into the checkout's `./data`.
 */
export async function startServer(
  options: {
    env?: Record<string, string>;
    cwd?: string;
    command?: string[];
    node?: string;
    quiet?: boolean;
    /** A port chosen beforehand, for a server that must know its own origin (SITE_URL); a free one otherwise. */
    port?: number;
    /** How long `/healthz` may take to answer: 30 s, longer for a command that builds first (`npm start`). */
    readyWithinMs?: number;
  } = {},
): Promise<RunningServer> {
  const cwd = options.cwd ?? process.cwd();
  const host = options.env?.HOST ?? "127.0.0.1";
  const port = options.port ?? (await freePort(host));
  const ownStore =
    options.env?.ENQUIRY_STORE_DIR === undefined ? mkdtempSync(join(tmpdir(), "leads-")) : null;
  const command = options.command ?? [options.node ?? process.execPath, "build/server.js"];
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      HOST: host,
      HEALTH_TOKEN: TEST_HEALTH_TOKEN,
      ...(ownStore ? { ENQUIRY_STORE_DIR: ownStore } : {}),
      ...options.env,
      PORT: String(port),
    },
    stdio: ["ignore", options.quiet ? "ignore" : "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const url = `http://${isIPv6(host) ? `[${host}]` : host}:${port}`;
  const stop = async () => {
    await stopProcess(child);
    if (ownStore) rmSync(ownStore, { recursive: true, force: true });
  };
  const readyWithinMs = options.readyWithinMs ?? 30_000;
  const deadline = Date.now() + readyWithinMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`server exited with ${child.exitCode} before it was ready:\n${output}`);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return { url, port, process: child, pid: child.pid, output: () => output, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`server did not answer /healthz within ${readyWithinMs / 1000} s:\n${output}`);
}

export { stopProcess };
