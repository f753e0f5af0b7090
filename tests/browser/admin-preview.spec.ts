import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, FrameLocator, Locator, Page, Response } from "@playwright/test";
import { splitFrontMatter } from "../../scripts/lib/content/front-matter";
import { readYamlData } from "../../scripts/lib/content/yaml-data";
import { prepareContentWorktree } from "../../scripts/lib/content-worktree";
import { expect, test } from "../support/fixtures";
import {
  copyCheckout,
  git,
  gitIdentity,
  type RunningLocalEditor,
  startLocalEditor,
} from "../support/local-editor";

// /admin on the local backend, as `npm run content` runs it (tests/support/local-editor.ts), on a
// throwaway copy of this checkout; the site it serves is this checkout's build, so an entry in
// the editor and its built page are the same content. The preview is compared with the page, not
// with any words of the content: the test finds a case study and a Hindi article in the built
// lists and reads both sides from the browser. decap-server answers 404 to "the draft of this
// entry" while the entry has none, and the editor's image fields ask the site for a file by its
// public path (images/…), which only the build publishes. The preview's frame runs no script
// (its sandbox has no allow-scripts): the test's own listener, which the fixtures add to every
// document, is refused there, and Chromium says so on the console.
test.use({
  allowedProblems: [
    /^HTTP 404 http:\/\/127\.0\.0\.1:\d+\/admin\/api\/v1\?token=[\w-]+$|^HTTP 404 http:\/\/127\.0\.0\.1:\d+\/(?:admin\/)?images\/|^request to another origin: http:\/\/127\.0\.0\.1:\d+\/|^console error: Blocked script execution in 'about:(?:blank|srcdoc)' because the document's frame is sandboxed and the 'allow-scripts' permission is not set\.$/,
  ],
  viewport: { width: 1600, height: 900 },
});

let checkout: string;
let worktree: string;
let editor: RunningLocalEditor;

/** Entries of the test's own, beside the content: one unpublished, one dated in the future, and an image outside content/images/. */
const UNPUBLISHED = "A draft the readers never see";
const SCHEDULED = "An article for a later day";
const article = (title: string, extra: string) =>
  `---\ntitle: ${title}\ndescription: Written by the test.\nauthor: The test\ndate: 2026-01-05\n${extra}---\n\nA paragraph.\n`;

test.beforeAll(async () => {
  checkout = copyCheckout();
  const content = prepareContentWorktree(checkout);
  worktree = content.dir;
  writeFileSync(
    join(worktree, "content/insights/a-draft-readers-never-see.md"),
    article(UNPUBLISHED, "published: false\n"),
  );
  writeFileSync(
    join(worktree, "content/insights/an-article-for-a-later-day.md"),
    article(SCHEDULED, "").replace("date: 2026-01-05", "date: 2099-01-01"),
  );
  writeFileSync(join(worktree, "content/case-studies/stray-photo.png"), "");
  git(worktree, "add", "content");
  git(worktree, "commit", "--quiet", "--no-verify", "--no-gpg-sign", "--message", "The test's entries");
  editor = await startLocalEditor({ checkout: worktree, branch: content.branch, gitIdentity });
});

test.afterAll(async () => {
  await editor?.stop();
  rmSync(checkout, { recursive: true, force: true });
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${editor.site.url}/admin/`);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByRole("heading", { name: "Collections" })).toBeVisible();
}

/** An entry's editor, loaded afresh (Decap keeps the last entry's fields when only the hash changes). */
async function openEntry(page: Page, collection: string, slug: string): Promise<FrameLocator> {
  await page.goto(`${editor.site.url}/admin/#/collections/${collection}/entries/${slug}`);
  await page.reload();
  return page.frameLocator("iframe#preview-pane").frameLocator('iframe[title="Preview of the page"]');
}

/** What a reader sees of a content page, read in the browser: the same function on the preview and on the page. */
async function pageFacts(root: { locator: (selector: string) => Locator }) {
  const heading = root.locator("h1");
  await expect(heading).toBeVisible();
  const style = await heading.evaluate(async (element) => {
    await document.fonts.ready;
    const computed = getComputedStyle(element);
    // The box the text takes: a face other than the page's would set the words to another width.
    const box = element.getBoundingClientRect();
    return {
      size: `${Math.round(box.width)} × ${Math.round(box.height)}`,
      fontSize: computed.fontSize,
      fontWeight: computed.fontWeight,
      fontFamily: computed.fontFamily,
      lineHeight: computed.lineHeight,
    };
  });
  const cover = root.locator("main figure img").first();
  const image =
    (await cover.count()) === 0
      ? null
      : await cover.evaluate(async (img: HTMLImageElement) => {
          await img.decode();
          return {
            alt: img.alt,
            src: new URL(img.currentSrc).pathname,
            width: Math.round(img.getBoundingClientRect().width),
            loaded: img.naturalWidth > 0,
          };
        });
  return {
    heading: await heading.textContent(),
    style,
    figures: await root
      .locator("main dl > div")
      .evaluateAll((items) =>
        items.map(
          (item) => `${item.querySelector("dd")?.textContent} ${item.querySelector("dt")?.textContent}`,
        ),
      ),
    paragraphs: await root.locator("main .content-body p").allInnerTexts(),
    cover: image,
    // The families of the faces the document has loaded for text it shows.
    fonts: await heading.evaluate(async () => {
      await document.fonts.ready;
      const families = [...document.fonts]
        .filter((face) => face.status === "loaded")
        .map((face) => face.family.replace(/"/g, ""));
      return [...new Set(families)].sort();
    }),
  };
}

/** The built page at the preview frame's width, so that both lay out alike. */
async function builtPage(browser: Browser, path: string, preview: FrameLocator) {
  const width = await preview.locator("html").evaluate(() => document.documentElement.clientWidth);
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  expect((await page.goto(`${editor.site.url}${path}`))?.status()).toBe(200);
  const facts = await pageFacts(page);
  await context.close();
  return { width, facts };
}

/**
 * Puts the caret after the rich-text body's last character by clicking there. A click is what
 * the editor's Slate reads at once; a key that moves the caret (Control+End) reaches it only on a
 * later, throttled selection event, so an Enter pressed soon after would land at the click.
 */
async function clickEndOfBody(page: Page) {
  const lastText = page.locator('[data-slate-editor="true"] [data-slate-string]').last();
  await lastText.scrollIntoViewIfNeeded();
  const end = await lastText.evaluate((last) => {
    const range = document.createRange();
    range.selectNodeContents(last);
    const rects = range.getClientRects();
    const rect = rects[rects.length - 1];
    if (!rect) throw new Error("the body's last text has no box to click");
    return { x: rect.right - 1, y: rect.top + rect.height / 2 };
  });
  await page.mouse.click(end.x, end.y);
}

/** The first link of a built list whose `filter` matches, as a slug. */
async function slugFromList(page: Page, list: string, selector: string): Promise<string> {
  await page.goto(`${editor.site.url}${list}`);
  const href = await page.locator(selector).first().getAttribute("href");
  expect(href, `${list} lists no entry matching ${selector}`).toBeTruthy();
  return (href ?? "").split("/").pop() ?? "";
}

test("a case study's preview is its page: the heading at the page's size, the figures, the paragraphs and the cover; and it follows the editor's edits", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const slug = await slugFromList(page, "/case-studies", 'main a[href^="/case-studies/"]');
  await signIn(page);
  const preview = await openEntry(page, "case-studies", slug);
  const shown = await pageFacts(preview);
  const built = await builtPage(browser, `/case-studies/${slug}`, preview);
  expect(built.width).toBeGreaterThan(600);
  expect(shown).toEqual(built.facts);
  expect(shown.figures.length).toBeGreaterThan(0);
  expect(shown.paragraphs.length).toBeGreaterThan(0);
  expect(shown.cover?.loaded).toBe(true);

  // The editor changes the title, a figure and the body: the preview shows each, as the page would.
  await page.getByLabel("Title", { exact: true }).fill("A title the editor has just typed");
  await expect(preview.locator("h1")).toHaveText("A title the editor has just typed");
  await expect(preview.locator("h1")).toHaveCSS("font-size", built.facts.style.fontSize);
  const results = page
    .locator('[aria-label="list field"]')
    .filter({ has: page.getByText("Results", { exact: true }) });
  await results.getByRole("button", { name: "Expand" }).click();
  await results.getByLabel("Figure", { exact: true }).first().fill("9×");
  await expect(preview.locator("main dl dd").first()).toHaveText("9×");
  await clickEndOfBody(page);
  await page.keyboard.press("Enter");
  await page.keyboard.type("A paragraph the editor has just written.");
  await expect(
    preview.locator("main .content-body p", { hasText: "A paragraph the editor has just written." }),
  ).toBeVisible();
  // A field emptied: the preview names it, as the build would, instead of showing a page.
  await page.getByLabel("Client", { exact: true }).fill("");
  await expect(preview.getByText("Client: is empty")).toBeVisible();
});

test("a Hindi article's preview is its page, in the Devanagari font, and a new Devanagari title is set in it too", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const slug = await slugFromList(page, "/insights", 'main h2[lang="hi"] a[href^="/insights/"]');
  await signIn(page);
  const preview = await openEntry(page, "insights", slug);
  const shown = await pageFacts(preview);
  const built = await builtPage(browser, `/insights/${slug}`, preview);
  expect(shown).toEqual(built.facts);
  expect(shown.fonts).toContain("Noto Sans Devanagari");
  expect(shown.paragraphs.length).toBeGreaterThan(0);

  const title = "पहला संस्करण, नया शीर्षक";
  await page.getByLabel("Title", { exact: true }).fill(title);
  await expect(preview.locator("h1")).toHaveText(title);
  expect(
    await preview
      .locator("h1")
      .evaluate((h1) => document.fonts.check(`700 48px "Noto Sans Devanagari"`, h1.textContent ?? "")),
  ).toBe(true);
  expect((await pageFacts(preview)).fonts).toContain("Noto Sans Devanagari");
});

test("the editor reads like the site's: New case study and New article, unpublished and scheduled entries marked, the running site's link, and a media library of content/images/ only", async ({
  page,
}) => {
  // Decap asks for the media library's files once signed in, before the library is opened.
  const mediaListings: Response[] = [];
  page.on("response", (response) => {
    const asked = response.request().postData() ?? "";
    if (response.url().includes("/admin/api/v1") && asked.includes('"action":"getMedia"'))
      mediaListings.push(response);
  });
  await signIn(page);
  await page.goto(`${editor.site.url}/admin/#/collections/case-studies`);
  await expect(page.getByRole("link", { name: "Create entry of type case study" })).toHaveText(
    "New case study",
  );
  await page.goto(`${editor.site.url}/admin/#/collections/insights`);
  await expect(page.getByRole("link", { name: "Create entry of type article" })).toHaveText("New article");
  await expect(page.getByText("＋")).toHaveCount(0);

  await expect(page.getByText(`${UNPUBLISHED} · Unpublished`, { exact: true })).toBeVisible();
  await expect(page.getByText(`${SCHEDULED} · Scheduled for 1 January 2099`, { exact: true })).toBeVisible();
  // Every entry is listed by its title, marked only when visitors do not see it (its file says so).
  const today = new Date().toISOString().slice(0, 10);
  const expected = readdirSync(join(worktree, "content/insights")).map((file) => {
    const split = splitFrontMatter(readFileSync(join(worktree, "content/insights", file), "utf8"));
    const read = split.ok ? readYamlData(split.yaml) : undefined;
    const data = (read?.ok ? read.data : {}) as { title: string; published?: boolean; date: string };
    const day = new Date(`${data.date}T00:00:00Z`).toLocaleDateString("en-IN", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    });
    return [
      data.title,
      ...(data.published === false ? ["Unpublished"] : []),
      ...(data.date > today ? [`Scheduled for ${day}`] : []),
    ].join(" · ");
  });
  const listed = page.locator('a[href^="#/collections/insights/entries/"] h2');
  await expect(listed).toHaveCount(expected.length);
  expect((await listed.allInnerTexts()).sort()).toEqual(expected.sort());

  const site = new URL(editor.site.url);
  await expect(page.getByRole("link", { name: site.host, exact: true })).toHaveAttribute("href", site.origin);

  await page.getByRole("button", { name: "Media" }).click();
  await expect(page.getByRole("dialog").getByRole("heading", { name: "Media assets" })).toBeVisible();
  await expect.poll(() => mediaListings.length).toBeGreaterThan(0);
  const listing = ((await mediaListings[0]?.json()) ?? []) as { path: string }[];
  const media = listing.map((file) => file.path).sort();
  expect(media).toEqual(
    readdirSync(join(worktree, "content/images"))
      .map((name) => `content/images/${name}`)
      .sort(),
  );
  await expect(
    page.getByRole("dialog").getByText(media[0]?.split("/").pop() ?? "", { exact: true }),
  ).toBeVisible();
  // Nor does the local editor's API list another folder's files, asked directly by the editor's own origin.
  const token = await page.locator('meta[name="cms-preview-token"]').getAttribute("content");
  const elsewhere = await page.request.post(`${editor.site.url}/admin/api/v1?token=${token}`, {
    headers: { Origin: site.origin },
    data: { action: "getMedia", params: { branch: "content-edits", mediaFolder: "content/case-studies" } },
  });
  expect(elsewhere.status()).toBe(403);
});
