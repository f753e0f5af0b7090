// Runs one of `npm run check`'s scripts (scripts/check-*.ts) as npm does, with vite-node, and
// gives its exit code and what it printed on stderr: the unit tests of the checks call it.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

export interface CheckRun {
  code: number;
  stderr: string;
}

/** `vite-node <script> …args` from the project's root: 0 and stderr, or the exit code and stderr. */
export function runCheckScript(script: string, args: readonly string[]): Promise<CheckRun> {
  const viteNode = join(process.cwd(), "node_modules", ".bin", "vite-node");
  return promisify(execFile)(viteNode, [script, ...args], { cwd: process.cwd() }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
}
