/**
 * `npm test`'s first step: every system program the tests run is on PATH, and the lead-fault
 * tests' namespaces can be made here (the rule: scripts/lib/test-system.ts); otherwise one line
 * says what is missing, and it exits 1 before any test starts.
 * Usage: vite-node scripts/check-test-system.ts
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { testSystemFaults } from "./lib/test-system";

const onPath = (name: string) =>
  (process.env.PATH ?? "").split(delimiter).some((folder) => {
    const file = join(folder, name);
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  });

const mountPoint = mkdtempSync(join(tmpdir(), "test-system-"));
try {
  const faults = testSystemFaults({
    uid: process.getuid?.() ?? 0,
    onPath,
    mountPoint,
    unshare: (args) => {
      const run = spawnSync("unshare", args, { encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
      return run.status === 0 ? null : run.stderr || run.error?.message || `exit ${run.status}`;
    },
  });
  for (const fault of faults) console.error(fault);
  if (faults.length > 0) process.exitCode = 1;
} finally {
  rmSync(mountPoint, { recursive: true, force: true });
}
