// Bundles `npm run leads` into build/leads.js with the app code it reads (the lead store and
// the environment), so the production image, which holds build/ and production dependencies
// only, has the operator's command too. Run by `npm run build` after `remix build`.
import { build } from "esbuild";
import { root } from "./lib/server.js";

await build({
  absWorkingDir: root,
  entryPoints: ["scripts/leads.ts"],
  outfile: "build/leads.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Dependencies (zod) come from node_modules at run time, as for the server build.
  packages: "external",
  logLevel: "warning",
});
