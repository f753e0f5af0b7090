/**
 * `npm run check`: every path of app/, server/, scripts/, bench/ or tests/ that README.md or a
 * document of docs/ (not docs/decisions/) names in backticks exists (the rule: scripts/lib/doc-paths.ts).
 *
 * Prints each missing path as `file:line: `path` does not exist` and exits 1 if there is one.
 * Usage: vite-node scripts/check-doc-paths.ts [root]   (default: this checkout)
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { checkDocPaths } from "./lib/doc-paths";

const root = resolve(process.argv[2] ?? dirname(dirname(fileURLToPath(import.meta.url))));
const faults = checkDocPaths(root);
for (const fault of faults) console.error(fault);
if (faults.length > 0) {
  console.error(
    `${faults.length} missing path(s) in the documents: name the file as it is now, or drop the backticks where it is not a path of the code`,
  );
  process.exit(1);
}
