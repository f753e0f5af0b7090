/**
 * `npm run check`: the documents name what the code has. Every path of app/, server/, scripts/,
 * bench/ or tests/ that README.md or a document of docs/ (not docs/decisions/) names in backticks
 * exists (scripts/lib/doc-paths.ts), and every variable app/env.server.ts reads is in
 * .env.example and docs/configuration.md (scripts/lib/env-docs.ts).
 *
 * Prints each fault on its own line and exits 1 if there is one.
 * Usage: vite-node scripts/check-doc-paths.ts [root]   (default: this checkout)
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { checkDocPaths } from "./lib/doc-paths";
import { checkEnvDocs } from "./lib/env-docs";

const root = resolve(process.argv[2] ?? dirname(dirname(fileURLToPath(import.meta.url))));
const missingPaths = checkDocPaths(root);
for (const fault of missingPaths) console.error(fault);
if (missingPaths.length > 0) {
  console.error(
    `${missingPaths.length} missing path(s) in the documents: name the file as it is now, or drop the backticks where it is not a path of the code`,
  );
}
const missingVariables = checkEnvDocs(root);
for (const fault of missingVariables) console.error(fault);
if (missingVariables.length > 0) {
  console.error(
    `${missingVariables.length} variable(s) missing from the configuration's documents: add each to .env.example and to docs/configuration.md's table, with what it does and its default`,
  );
}
if (missingPaths.length + missingVariables.length > 0) process.exit(1);
