/**
 * `npm run build:content`: validates content/ (or the folder CONTENT_DIR names:
 * scripts/lib/content-directory.js) and writes the typed modules the app imports
 * (app/content/generated/), with every raster image they name made responsive into public/media/
 * (scripts/lib/content/images.ts) and the Devanagari font cut to the Hindi articles' characters
 * (scripts/lib/content/fonts.ts). An article or case study dated after the day it publishes for
 * (`PUBLISH_DATE`, or today in `SITE_TIME_ZONE`: scripts/lib/content/publish-date.ts) is validated
 * but left out of the modules. A bad file fails it with one line per fault, naming the file, the
 * field and what is wrong; `--check` validates without writing (for `npm run check`).
 */
import { join, resolve } from "node:path";
import { type SubsetFonts, subsetDevanagariFonts } from "./lib/content/fonts";
import { writeGenerated } from "./lib/content/generate";
import { type MadeImages, makeImagesResponsive } from "./lib/content/images";
import { type ContentFault, formatFault, loadContent } from "./lib/content/load";
import { contentDirectory } from "./lib/content-directory.js";

const root = resolve(import.meta.dirname, "..");
let folder: string;
try {
  folder = contentDirectory(root);
} catch (error) {
  console.error(`content: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
const dir = join(root, folder);

import { dueContent, dueDateOf, publishDayOf } from "./lib/content/publish-date";

/** Prints each fault on a line of its own and ends the build, when there are any. */
function stopOnFaults(faults: ContentFault[]): void {
  if (faults.length === 0) return;
  for (const fault of faults) console.error(formatFault(fault));
  console.error(
    `content: ${faults.length} fault${faults.length === 1 ? "" : "s"} in ${folder}/; fix ${faults.length === 1 ? "it" : "them"} and build again`,
  );
  process.exit(1);
}

const checkOnly = process.argv.includes("--check");
const started = performance.now();
const publishDay = publishDayOf(process.env, new Date());
if (!publishDay.ok) {
  console.error(`content: ${publishDay.message}`);
  process.exit(1);
}
const { date: publishDate, timeZone, from } = publishDay.day;
const { content, faults } = await loadContent(root, { dir, publishDate });
stopOnFaults(faults);
const files = Object.values(content).reduce((sum, entries) => sum + entries.length, 0);
const { content: due, scheduled } = dueContent(content, publishDate);
let images: MadeImages | undefined;
let fonts: SubsetFonts | undefined;
let written: string[] = [];
if (!checkOnly) {
  // Every entry's photos and Hindi words, the scheduled ones' too: a photo sharp cannot read fails
  // today's build, not the one on the entry's day (the files' names are hashes no page gives yet).
  images = await makeImagesResponsive(root, content, dir);
  stopOnFaults(images.faults);
  fonts = await subsetDevanagariFonts(root, content);
  written = writeGenerated(root, due, dir);
}
console.log(
  `content: ${files} files of ${folder}/ valid${checkOnly ? "" : `, ${written.length} modules written`} (${Math.round(performance.now() - started)} ms)` +
    (images
      ? `; ${images.images} raster images made responsive (${images.files} files in public/media/) in ${images.milliseconds} ms`
      : "") +
    (fonts
      ? `; the Devanagari font cut to ${fonts.characters} characters (${fonts.bytes} B, two weights) in ${fonts.milliseconds} ms`
      : ""),
);
console.log(
  `content: published as of ${publishDate} (${from === "today" ? `today in ${timeZone}` : "PUBLISH_DATE"}); ` +
    (scheduled.length === 0
      ? "nothing dated later"
      : `${scheduled.length} ${scheduled.length === 1 ? "entry" : "entries"} dated later, left out until their day: ${scheduled.map((entry) => `${entry.file} (${dueDateOf(entry)})`).join(", ")}`),
);
