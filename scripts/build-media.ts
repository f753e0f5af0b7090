/**
 * The build's media step, run by `npm run build` after the app and the server are built: the
 * Open Graph images of every page (the home page, the policies, each published case study and
 * article, and their two lists) into public/og/,
 * and /admin's files into build/admin/ (scripts/media/write-media.ts), with the Devanagari font of
 * its previews (scripts/lib/content/fonts.ts).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { writePreviewFont } from "./lib/content/fonts";
import { root } from "./lib/server.js";
import { contentPages, sitePages, writeAdmin, writeOgImages } from "./media/write-media";

const started = performance.now();
rmSync(join(root, "public", "og"), { recursive: true, force: true });
const pages = [...sitePages, ...contentPages()];
const bytes = await writeOgImages(pages);
const og = performance.now();
await writeAdmin();
writePreviewFont(root, join(root, "build", "admin"));
console.log(
  `media: ${pages.length} Open Graph images (${Math.round(bytes / 1024)} KB) in ${Math.round(og - started)} ms; /admin's files in ${Math.round(performance.now() - og)} ms`,
);
