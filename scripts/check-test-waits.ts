/**
 * `npm run check`: no fixed wait in tests/ (the rule: scripts/lib/test-waits.ts). Prints each
 * as `file:line:column what` and exits 1 if there is one.
 *
 * Usage: vite-node scripts/check-test-waits.ts [folder…]   (default: tests)
 */
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { checkFolders } from "./lib/test-waits";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const folders = process.argv.slice(2);
const faults = checkFolders(folders.length > 0 ? folders : ["tests"], root);
for (const fault of faults) console.error(fault);
if (faults.length > 0) {
  console.error(
    `${faults.length} fixed wait(s) in tests: await a state or control the clock (scripts/lib/test-waits.ts)`,
  );
  process.exit(1);
}
