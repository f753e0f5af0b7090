/**
 * Vitest's global setup: writes the generated modules from the tests' own content
 * (tests/fixtures/content), with its images made responsive as `npm run build:content` does and
 * entries dated after today left out as it leaves them, so the unit tests run on a fresh clone and
 * never on what an editor changed in content/.
 */
import { resolve } from "node:path";
import { writeGenerated } from "../../scripts/lib/content/generate";
import { makeImagesResponsive } from "../../scripts/lib/content/images";
import { formatFault, loadContent } from "../../scripts/lib/content/load";
import { dueContent, publishDayOf } from "../../scripts/lib/content/publish-date";
import { FIXTURE_CONTENT_DIR } from "./fixture-content";

export default async function setup(): Promise<void> {
  const root = resolve(import.meta.dirname, "../..");
  const dir = resolve(root, FIXTURE_CONTENT_DIR);
  const publishDay = publishDayOf(process.env, new Date());
  if (!publishDay.ok) throw new Error(publishDay.message);
  const { content, faults } = await loadContent(root, { dir, publishDate: publishDay.day.date });
  if (faults.length > 0) throw new Error(faults.map(formatFault).join("\n"));
  await makeImagesResponsive(root, content, dir);
  writeGenerated(root, dueContent(content, publishDay.day.date).content, dir);
}
