// Build-once and start-the-built-server helpers shared by the bench and load-test scripts.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(import.meta.url);

/** Builds the site when build/ or public/build/ is missing (like `npm start`). */
export function ensureBuild() {
  if (existsSync(join(root, "build", "index.js")) && existsSync(join(root, "public", "build"))) return;
  console.log("No build found: building the site first (remix build).");
  const remix = join(dirname(require.resolve("@remix-run/dev/package.json")), "dist", "cli.js");
  const build = spawnSync(process.execPath, [remix, "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error(`remix build failed with ${build.status}`);
}

export async function freePort(host = "127.0.0.1") {
  const server = createServer();
  server.listen(0, host);
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (address === null || typeof address === "string") throw new Error("no free port");
  return address.port;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until GET url answers 2xx, or throws after `timeoutMs`. */
export async function waitForOk(url, timeoutMs = 30_000, child) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null)
      throw new Error(`${url}: the process exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * Starts `remix-serve build/index.js` as production does, on a free loopback port. Its
 * request log goes to /dev/null unless `log` is true (morgan's line per request would
 * otherwise cost a pipe write per request in the measurements).
 */
export async function startBuiltServer({ env = {}, log = false } = {}) {
  const port = await freePort();
  const serve = join(dirname(require.resolve("@remix-run/serve/package.json")), "dist", "cli.js");
  const child = spawn(process.execPath, [serve, join(root, "build", "index.js")], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      ...env,
      PORT: String(port),
    },
    stdio: ["ignore", log ? "inherit" : "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/healthz`, 30_000, child);
  return { url, port, pid: child.pid, child, stop: () => stopChild(child) };
}

export async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Resident set size of a process in bytes (Linux /proc), or null when unavailable. */
export function rssBytes(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Prints rows of objects as an aligned text table. */
export function printTable(rows) {
  if (rows.length === 0) return;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => String(row[column] ?? "").length)),
  );
  const line = (cells) => cells.map((cell, index) => String(cell).padEnd(widths[index])).join("  ");
  console.log(line(columns));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const row of rows) console.log(line(columns.map((column) => row[column] ?? "")));
}
