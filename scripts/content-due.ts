/**
 * The daily publishing workflow's question (.github/workflows/publish-due.yml): which articles and
 * case studies became due after a given day, up to the day a build now publishes for
 * (`PUBLISH_DATE`, or today in `SITE_TIME_ZONE`: scripts/lib/content/publish-date.ts).
 *
 * Prints each on stdout as `<file> <date>`, soonest first, and nothing when none did; a content
 * fault or a bad setting is one line on stderr and exit 1.
 * Usage: vite-node scripts/content-due.ts --after YYYY-MM-DD
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { dateField } from "~/content/collections/fields";
import { formatFault, loadContent } from "./lib/content/load";
import { becameDue, dueDateOf, publishDayOf } from "./lib/content/publish-date";

const { values } = parseArgs({ options: { after: { type: "string" } } });
const after = values.after?.trim() ?? "";
if (!dateField.safeParse(after).success) {
  console.error(`content-due: --after must be a calendar date YYYY-MM-DD, not "${after}"`);
  process.exit(1);
}
const publishDay = publishDayOf(process.env, new Date());
if (!publishDay.ok) {
  console.error(`content-due: ${publishDay.message}`);
  process.exit(1);
}
const root = resolve(import.meta.dirname, "..");
const { date: publishDate, timeZone } = publishDay.day;
const { content, faults } = await loadContent(root, { publishDate });
if (faults.length > 0) {
  for (const fault of faults) console.error(formatFault(fault));
  console.error(`content-due: ${faults.length} fault(s) in content/: the build would stop on them too`);
  process.exit(1);
}
const due = becameDue(content, after, publishDate);
for (const entry of due) console.log(`${entry.file} ${dueDateOf(entry)}`);
console.error(
  `content-due: ${due.length} ${due.length === 1 ? "entry" : "entries"} became due after ${after} up to ${publishDate} (${timeZone})`,
);
