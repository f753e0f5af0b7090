/**
 * What `npm start`, the build, the bench and the load test share: the project's root, and a
 * process's memory.
 *
 * Servers start with tests/support/server-process.ts, as in the browser tests.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resident set size of a process in bytes (Linux /proc), or null when unavailable; `field`
 * "VmHWM" gives its peak so far instead.
 */
export function rssBytes(pid, field = "VmRSS") {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(
      readFileSync(`/proc/${pid}/status`, "utf8"),
    );
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
