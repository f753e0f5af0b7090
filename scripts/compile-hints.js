/**
 * Marks the browser build's large scripts for eager compilation (V8's explicit compile hints,
 * Chromium 136 and later): `//# allFunctionsCalledOnLoad` on a script's first line makes V8
 * compile all of it on a background thread while it streams in. Unmarked, V8 only pre-parses
 * a function and compiles it on the main thread the first time it runs: for React DOM's
 * bundled factory that was a 40-80 ms task while the page hydrated. Other browsers read a
 * comment. Run by `npm run build` after `remix build`; running it again changes nothing.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./lib/server.js";

const HINT = "//# allFunctionsCalledOnLoad\n";
/** React DOM and Remix's shared chunk only: the route and lazy chunks compile in a few milliseconds each. */
const MIN_BYTES = 100 * 1024;

function scriptsIn(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return scriptsIn(path);
    return entry.name.endsWith(".js") ? [path] : [];
  });
}

for (const file of scriptsIn(join(root, "public", "build"))) {
  if (statSync(file).size < MIN_BYTES) continue;
  const code = readFileSync(file, "utf8");
  if (!code.startsWith(HINT)) writeFileSync(file, HINT + code);
}
