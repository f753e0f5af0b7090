/**
 * `npm run check`: every source file of app/, server/, scripts/ and bench/ opens with a comment saying its
 * job, and every document a comment cites exists (the rule: scripts/lib/file-comments.ts).
 *
 * Prints each fault as `file:line what` and exits 1 if there is one.
 * Usage: vite-node scripts/check-file-comments.ts [folder…]   (default: app server scripts bench)
 */
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { checkFileComments, SOURCE_FOLDERS } from "./lib/file-comments";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const folders = process.argv.slice(2);
const faults = checkFileComments(root, folders.length > 0 ? folders : SOURCE_FOLDERS);
for (const fault of faults) console.error(fault);
if (faults.length > 0) {
  console.error(
    `${faults.length} comment fault(s): open each file with a comment saying its job in one sentence, and cite documents that exist (docs/decisions/NNN-title.md)`,
  );
  process.exit(1);
}
