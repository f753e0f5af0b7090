import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  formatFault,
  type LoadedContent,
  type LoadedEntry,
  loadContent,
} from "../../scripts/lib/content/load";
import {
  becameDue,
  DEFAULT_SITE_TIME_ZONE,
  dayIn,
  dueContent,
  isScheduled,
  publishDayOf,
} from "../../scripts/lib/content/publish-date";

const repository = resolve(import.meta.dirname, "../..");
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** An entry of a folder collection dated `date`, or of a file collection (no date) when undefined. */
const entry = (file: string, date?: string): LoadedEntry => ({
  file,
  slug: file.replace(/^.*\/|\.md$/g, ""),
  data: date === undefined ? { title: file } : { title: file, date },
});

const contentOf = (entries: Partial<LoadedContent>): LoadedContent =>
  ({
    services: [],
    delivery: [],
    values: [],
    partners: [],
    contact: [],
    "case-studies": [],
    insights: [],
    ...entries,
  }) as LoadedContent;

describe("the day a build publishes for", () => {
  test("the site's day starts at midnight in Asia/Kolkata (UTC+5:30), not in UTC", () => {
    expect(DEFAULT_SITE_TIME_ZONE).toBe("Asia/Kolkata");
    expect(dayIn("Asia/Kolkata", new Date("2026-12-06T18:29:59Z"))).toBe("2026-12-06");
    expect(dayIn("Asia/Kolkata", new Date("2026-12-06T18:30:00Z"))).toBe("2026-12-07");
    expect(dayIn("UTC", new Date("2026-12-06T18:30:00Z"))).toBe("2026-12-06");
    expect(dayIn("America/New_York", new Date("2026-12-07T04:59:59Z"))).toBe("2026-12-06");
  });

  test("unset, it is today in SITE_TIME_ZONE, which is Asia/Kolkata unless set", () => {
    const now = new Date("2026-12-31T20:00:00Z");
    expect(publishDayOf({}, now)).toEqual({
      ok: true,
      day: { date: "2027-01-01", timeZone: "Asia/Kolkata", from: "today" },
    });
    expect(publishDayOf({ SITE_TIME_ZONE: "UTC" }, now)).toEqual({
      ok: true,
      day: { date: "2026-12-31", timeZone: "UTC", from: "today" },
    });
    // A Docker build argument left out arrives empty: the same as unset.
    expect(publishDayOf({ PUBLISH_DATE: "", SITE_TIME_ZONE: "" }, now)).toEqual(publishDayOf({}, now));
  });

  test("PUBLISH_DATE, when set, is the day whatever the clock says", () => {
    expect(publishDayOf({ PUBLISH_DATE: "2027-03-01" }, new Date("2026-12-06T00:00:00Z"))).toEqual({
      ok: true,
      day: { date: "2027-03-01", timeZone: "Asia/Kolkata", from: "PUBLISH_DATE" },
    });
  });

  test("a bad setting is one line naming it, never a guessed day", () => {
    const now = new Date("2026-12-06T00:00:00Z");
    expect(publishDayOf({ PUBLISH_DATE: "2027-02-29" }, now)).toEqual({
      ok: false,
      message:
        'PUBLISH_DATE "2027-02-29" is not a calendar date YYYY-MM-DD: set one, or leave it unset for today in Asia/Kolkata',
    });
    expect(publishDayOf({ PUBLISH_DATE: "06/12/2026" }, now).ok).toBe(false);
    expect(publishDayOf({ SITE_TIME_ZONE: "India/Bengaluru" }, now)).toEqual({
      ok: false,
      message:
        'SITE_TIME_ZONE "India/Bengaluru" is not a time zone: set an IANA name such as Asia/Kolkata or Europe/London, or leave it unset for Asia/Kolkata',
    });
  });
});

describe("which entries a build publishes", () => {
  test("an entry is published from its own day on, and left out the day before", () => {
    const article = entry("content/insights/a.md", "2026-12-10");
    expect(isScheduled(article, "2026-12-09")).toBe(true);
    expect(isScheduled(article, "2026-12-10")).toBe(false);
    expect(isScheduled(article, "2027-01-01")).toBe(false);
  });

  test("an entry without a date (a services or contact file) is never held back", () => {
    expect(isScheduled(entry("content/contact.yml"), "2000-01-01")).toBe(false);
  });

  test("the scheduled entries leave every collection, the rest keep their order", () => {
    const content = contentOf({
      insights: [
        entry("content/insights/c.md", "2026-12-20"),
        entry("content/insights/b.md", "2026-12-07"),
        entry("content/insights/a.md", "2026-12-01"),
      ],
      "case-studies": [entry("content/case-studies/z.md", "2026-12-08")],
      contact: [entry("content/contact.yml")],
    });
    const { content: due, scheduled } = dueContent(content, "2026-12-07");
    expect(due.insights.map(({ file }) => file)).toEqual(["content/insights/b.md", "content/insights/a.md"]);
    expect(due["case-studies"]).toEqual([]);
    expect(due.contact).toHaveLength(1);
    expect(scheduled.map(({ file }) => file)).toEqual(["content/case-studies/z.md", "content/insights/c.md"]);
  });

  test("what became due after one day up to another: neither the first day's nor later ones", () => {
    const content = contentOf({
      insights: [
        entry("content/insights/on-the-day-before.md", "2026-12-06"),
        entry("content/insights/today.md", "2026-12-08"),
        entry("content/insights/yesterday.md", "2026-12-07"),
        entry("content/insights/tomorrow.md", "2026-12-09"),
      ],
    });
    expect(becameDue(content, "2026-12-06", "2026-12-08").map(({ file }) => file)).toEqual([
      "content/insights/yesterday.md",
      "content/insights/today.md",
    ]);
    expect(becameDue(content, "2026-12-08", "2026-12-08")).toEqual([]);
  });
});

describe("links to a page dated later", () => {
  /** The repository's content with two articles: `linking` (dated `linkingDate`) links to `later`. */
  function contentWithLink(linkingDate: string): string {
    const root = mkdtempSync(join(tmpdir(), "publish-date-"));
    folders.push(root);
    cpSync(join(repository, "content"), join(root, "content"), { recursive: true });
    mkdirSync(join(root, "content", "insights"), { recursive: true });
    const article = (date: string, body: string) =>
      `---\ntitle: A title\ndescription: What it says.\nauthor: Meera Iyer\ndate: ${date}\n---\n${body}\n`;
    writeFileSync(join(root, "content", "insights", "later.md"), article("2026-12-20", "Words of its own."));
    writeFileSync(
      join(root, "content", "insights", "linking.md"),
      article(linkingDate, "See [the next one](/insights/later)."),
    );
    return root;
  }

  test("are refused while the linking page would be on the site before the page it links to", async () => {
    const { faults } = await loadContent(contentWithLink("2026-12-10"), { publishDate: "2026-12-07" });
    expect(faults.map(formatFault)).toEqual([
      "content/insights/linking.md:7: body: links to /insights/later, which is dated 2026-12-20 and is not on the site until then: link to it once it is, or date this page 2026-12-20 or later",
    ]);
  });

  test("are fine from a page dated the same day or later, or once the build's day has come", async () => {
    expect((await loadContent(contentWithLink("2026-12-20"), { publishDate: "2026-12-07" })).faults).toEqual(
      [],
    );
    expect((await loadContent(contentWithLink("2026-12-10"), { publishDate: "2026-12-20" })).faults).toEqual(
      [],
    );
  });
});
