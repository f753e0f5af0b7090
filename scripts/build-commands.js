/**
 * Bundles the server (server/index.ts into build/server.js) and the operator's commands
 * (`npm run leads`, `npm run vitals`) into build/ with the app code they read (the lead store,
 * the field-metrics files, the environment), so the production image, which holds build/ and
 * production dependencies only, has them too; and copies the database's migrations beside them,
 * to build/migrations/, where the bundled app/db/migrations.server.ts reads them. Run by
 * `npm run build` after `remix build`.
 */
import { cpSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { root } from "./lib/server.js";

const { dependencies } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

export const commands = ["leads", "vitals", "report"];

await build({
  absWorkingDir: root,
  entryPoints: {
    server: "server/index.ts",
    ...Object.fromEntries(commands.map((name) => [name, `scripts/${name}.ts`])),
  },
  outdir: "build",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Production dependencies (zod) come from node_modules at run time, as for the server build.
  // Not `packages: "external"`: esbuild 0.17 would take the app's `~/` alias for a package too.
  external: Object.keys(dependencies),
  logLevel: "warning",
});

// Replaced whole, so that a file renamed in app/db/migrations/ leaves no stale copy.
rmSync(join(root, "build", "migrations"), { recursive: true, force: true });
cpSync(join(root, "app", "db", "migrations"), join(root, "build", "migrations"), { recursive: true });
