/**
 * The build's media step, run by `npm run build` after the app and the server are built: the
 * Open Graph images of the pages outside content/ (the home page, the policies) into public/og/,
 * and /admin's files into build/admin/ (scripts/media/write-media.ts).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { root } from "./lib/server.js";
import { sitePages, writeAdmin, writeOgImages } from "./media/write-media";

const started = performance.now();
rmSync(join(root, "public", "og"), { recursive: true, force: true });
const bytes = await writeOgImages(sitePages);
const og = performance.now();
writeAdmin();
console.log(
  `media: ${sitePages.length} Open Graph images (${Math.round(bytes / 1024)} KB) in ${Math.round(og - started)} ms; /admin's files in ${Math.round(performance.now() - og)} ms`,
);
