/**
 * `npm run check`: every destination in the registry (app/destinations/registry.server.ts) has
 * its settings in `.env.example` and docs/configuration.md; the compiler already checks that
 * they are in the environment's schema (app/env.server.ts).
 *
 * Prints each missing setting and exits 1 if there is one.
 * Usage: vite-node scripts/check-destinations.ts
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { destinations } from "~/destinations/lookup.server";
import { missingDestinationSettings } from "./lib/destination-settings";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const faults = missingDestinationSettings(destinations(), {
  envExample: readFileSync(join(root, ".env.example"), "utf8"),
  configurationDoc: readFileSync(join(root, "docs", "configuration.md"), "utf8"),
});
for (const fault of faults) console.error(`check-destinations: ${fault}`);
if (faults.length > 0) {
  console.error(
    `${faults.length} destination setting(s) undocumented: add each to .env.example and docs/configuration.md`,
  );
  process.exit(1);
}
