import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { splitFrontMatter } from "../../scripts/lib/content/front-matter";
import { readYamlData } from "../../scripts/lib/content/yaml-data";
import { DEFAULT_CONTENT_BRANCH, prepareContentWorktree } from "../../scripts/lib/content-worktree";
import { expect, test } from "../support/fixtures";
import {
  copyCheckout,
  git,
  gitIdentity,
  type RunningLocalEditor,
  startLocalEditor,
} from "../support/local-editor";
import { type RunningServer, startServer } from "../support/server-process";

// The site and decap-server are started by the test as `npm run content` starts them
// (tests/support/local-editor.ts): decap-server on a socket, reached through the site's /admin/api/v1. The developer's checkout is a throwaway git
// repository: a copy of this checkout's tracked files committed on `main`, node_modules linked,
// with a change of the developer's not yet committed. decap-server works in git mode (the
// editorial workflow) on that repository's content worktree; the developer merges what was
// published, builds with `npm run build` and serves it, as an editor's machine would. The editor's
// site is on an origin of its own, not the fixture's. The editor's preview asks
// the site for an upload by its public path (images/…), which only the build publishes: a 404
// there is the preview's placeholder, not a fault. decap-server answers 404 to "the draft of this
// entry" while the entry has none: that is how Decap learns an entry is not a draft. The preview's
// frame runs no script, so the test's own listener (tests/support/fixtures.ts) is refused there.
test.use({
  allowedProblems: [
    /^request to another origin: http:\/\/127\.0\.0\.1:\d+\/|^HTTP 404 http:\/\/127\.0\.0\.1:\d+\/(?:admin\/)?images\/|^HTTP 404 http:\/\/127\.0\.0\.1:\d+\/admin\/api\/v1\?token=[\w-]+$|^console error: Blocked script execution in 'about:(?:blank|srcdoc)' because the document's frame is sandboxed and the 'allow-scripts' permission is not set\.$/,
  ],
});

let checkout: string;
let worktree: string;
let editor: RunningLocalEditor;
let server: RunningServer;
let built: RunningServer | undefined;

/** Decap's Workflow view, loaded afresh (the local backend's sign-in is kept in the browser). */
async function openWorkflow(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/admin/#/workflow`);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Drafts", exact: true })).toBeVisible();
}

/** The developer's work in progress: a tracked file changed and a new one, neither committed. */
const README_LINE = "\nA line the developer has not committed yet.\n";
const UNTRACKED_NOTE = "notes-in-progress.md";

test.beforeAll(async () => {
  checkout = copyCheckout();
  appendFileSync(join(checkout, "README.md"), README_LINE);
  writeFileSync(join(checkout, UNTRACKED_NOTE), "Half-written.\n");
  const content = prepareContentWorktree(checkout);
  worktree = content.dir;
  editor = await startLocalEditor({ checkout: worktree, branch: content.branch, gitIdentity });
  server = editor.site;
});

test.afterAll(async () => {
  await built?.stop();
  await editor?.stop();
  rmSync(checkout, { recursive: true, force: true });
});

test("an editor adds a case study with a photo in /admin as a draft, moves it to Ready and publishes it: only then do the file land in content/case-studies/ and the photo in content/images/, and after the build /case-studies/<slug> shows it", async ({
  page,
}) => {
  test.setTimeout(600_000);
  const photo = join(tmpdir(), `ledgerly-office-${process.pid}.jpg`);
  await sharp({ create: { width: 2400, height: 1600, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .jpeg({ quality: 95 })
    .toFile(photo);
  const photoName = "ledgerly-office.jpg";

  await page.goto(`${server.url}/admin/`);
  await page.getByRole("button", { name: "Login" }).click();
  await page.getByRole("link", { name: "Case studies" }).click();
  await page.goto(`${server.url}/admin/#/collections/case-studies/new`);
  await page.getByLabel("Title", { exact: true }).fill("Ledgerly closes the books in a day");
  await page.getByLabel("Client", { exact: true }).fill("Ledgerly");
  await page.getByLabel("Sector", { exact: true }).fill("Fintech");
  await page
    .getByLabel("Summary", { exact: true })
    .fill("A month-end close that took a week now takes a day, for 40 accountants.");
  await page.getByRole("button", { name: "Add Stack" }).click();
  await page.getByLabel("Stack", { exact: true }).last().fill("Remix");
  await page.getByRole("button", { name: "Add Results" }).click();
  await page.getByLabel("Figure", { exact: true }).fill("5×");
  await page.getByLabel("What it measures", { exact: true }).fill("faster month-end close");
  // The cover's fields come first; the SEO override has an image of its own further down.
  await page.getByLabel("Alt text", { exact: true }).first().fill("Ledgerly's team at their desks in Pune");
  await page.getByRole("button", { name: "Choose an image" }).first().click();
  // The media library's Upload button is a label around this input.
  await page
    .getByRole("dialog")
    .locator('input[type="file"]')
    .setInputFiles({ name: photoName, mimeType: "image/jpeg", buffer: readFileSync(photo) });
  await page.getByRole("button", { name: "Choose selected" }).click();
  await page.getByLabel("Date", { exact: true }).fill("2026-11-20");
  await page.locator('[data-slate-editor="true"]').click();
  await page.keyboard.type("Ledgerly's accountants closed each month by hand.");
  // The preview is the page already, with the photo the build has not made yet shown from the
  // editor's own copy of the upload, whole.
  const preview = page
    .frameLocator("iframe#preview-pane")
    .frameLocator('iframe[title="Preview of the page"]');
  await expect(preview.getByRole("heading", { level: 1 })).toHaveText("Ledgerly closes the books in a day");
  const previewCover = preview.getByRole("img", { name: "Ledgerly's team at their desks in Pune" });
  await expect(previewCover).toHaveAttribute("src", /^blob:/);
  await expect
    .poll(() => previewCover.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBe(2400);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Changes saved")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Status: Draft/ })).toBeVisible();

  // Saved is a draft: a branch cms/case-studies/<slug> with the entry and its photo, shown in the
  // Workflow view's Drafts column, and nothing yet on the branch the site is built from.
  const slug = "ledgerly-closes-the-books-in-a-day";
  const draftBranch = `cms/case-studies/${slug}`;
  const entryPath = `content/case-studies/${slug}.md`;
  const uploadPath = `content/images/${photoName}`;
  expect(git(checkout, "branch", "--list", draftBranch)).not.toBe("");
  expect(git(checkout, "ls-tree", "--name-only", "-r", draftBranch, "--", entryPath, uploadPath)).toBe(
    `${entryPath}\n${uploadPath}`,
  );
  for (const dir of [worktree, checkout]) {
    expect(existsSync(join(dir, entryPath))).toBe(false);
    expect(existsSync(join(dir, uploadPath))).toBe(false);
  }
  await openWorkflow(page, server.url);
  const column = (header: string) =>
    page
      .locator("div")
      .filter({ has: page.getByRole("heading", { name: header, exact: true }) })
      .last();
  await expect(column("Drafts").getByText("Ledgerly closes the books in a day")).toBeVisible();
  await expect(column("Ready").getByText("Ledgerly closes the books in a day")).toHaveCount(0);

  // The editor opens the draft, sets it Ready, and publishes: Decap merges the draft's branch.
  await column("Drafts").getByText("Ledgerly closes the books in a day").click();
  await page.getByRole("button", { name: /^Status: Draft/ }).click();
  await page.getByText("Ready", { exact: true }).click();
  await expect(page.getByRole("button", { name: /^Status: Ready/ })).toBeVisible();
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  // Decap asks "Are you sure you want to publish this entry?" in a confirm dialog.
  const confirmations: string[] = [];
  page.once("dialog", (dialog) => {
    confirmations.push(dialog.message());
    void dialog.accept();
  });
  await page.getByText("Publish now").click();
  expect(confirmations).toEqual(["Are you sure you want to publish this entry?"]);
  await expect.poll(() => existsSync(join(worktree, entryPath)), { timeout: 30_000 }).toBe(true);
  expect(existsSync(join(worktree, uploadPath))).toBe(true);
  // decap-server merges, then deletes the draft's branch.
  await expect.poll(() => git(checkout, "branch", "--list", draftBranch)).toBe("");
  await openWorkflow(page, server.url);
  await expect(page.getByRole("heading", { name: "Ready", exact: true })).toBeVisible();
  await expect(page.getByText("Ledgerly closes the books in a day")).toHaveCount(0);

  // The developer's checkout was never touched: still on main, its uncommitted work still there
  // and in no commit of the editor's. They merge what was published, as docs/content-editing.md says.
  expect(git(checkout, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
  expect(readFileSync(join(checkout, "README.md"), "utf8").endsWith(README_LINE)).toBe(true);
  expect(git(checkout, "status", "--porcelain", "--", "README.md", UNTRACKED_NOTE)).toBe(
    // (git() trims the leading space of " M": changed in the working tree, not staged.)
    `M README.md\n?? ${UNTRACKED_NOTE}`,
  );
  expect(git(checkout, "diff", "--name-only", "main", DEFAULT_CONTENT_BRANCH).split("\n").sort()).toEqual(
    [uploadPath, entryPath].sort(),
  );
  git(checkout, "merge", "--quiet", "--no-edit", DEFAULT_CONTENT_BRANCH);

  const entry = join(checkout, entryPath);
  expect(existsSync(entry)).toBe(true);
  const split = splitFrontMatter(readFileSync(entry, "utf8"));
  if (!split.ok) throw new Error(`Decap wrote front matter the content build refuses: ${split.message}`);
  const { body: content } = split;
  const read = readYamlData(split.yaml);
  const data = read.ok ? read.data : read.message;
  expect(data).toMatchObject({
    title: "Ledgerly closes the books in a day",
    client: "Ledgerly",
    sector: "Fintech",
    stack: ["Remix"],
    results: [{ value: "5×", label: "faster month-end close" }],
    cover: { src: `images/${photoName}`, alt: "Ledgerly's team at their desks in Pune" },
  });
  expect(content).toContain("Ledgerly's accountants closed each month by hand.");
  const upload = join(checkout, uploadPath);
  expect(readFileSync(upload).equals(readFileSync(photo))).toBe(true);
  rmSync(photo);

  // The build validates the new file and makes its page; the built server shows it with the photo.
  execFileSync("npm", ["run", "-s", "build"], { cwd: checkout, stdio: "pipe" });
  built = await startServer({ cwd: checkout });
  // On a phone: 375 CSS px at twice the density, where the cover is 375 − 48 = 327 px wide.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setDeviceMetricsOverride", {
    width: 375,
    height: 812,
    deviceScaleFactor: 2,
    mobile: true,
  });
  const response = await page.goto(`${built.url}/case-studies/${slug}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ledgerly closes the books in a day");
  const cover = page.getByRole("img", { name: "Ledgerly's team at their desks in Pune" });
  await expect(cover).toBeVisible();
  // The 2400 × 1600 upload as the build made it: four widths up to 1600 px, in AVIF, WebP and
  // JPEG, the largest's size on the <img> (no shift), fetched first as the page's largest image.
  await expect(cover).toHaveAttribute("width", "1600");
  await expect(cover).toHaveAttribute("height", "1067");
  await expect(cover).toHaveAttribute("fetchpriority", "high");
  const picture = page.locator("picture", { has: cover });
  const setsOf = async () =>
    [
      ...(await picture
        .locator("source")
        .evaluateAll((sources: HTMLSourceElement[]) =>
          sources.map((source) => `${source.type} ${source.srcset}`),
        )),
      `img ${await cover.getAttribute("srcset")}`,
    ].map((set) => set.replace(/\/media\/[0-9a-f]{16}-(\d+)\.(\w+) (\d+w)/g, "$1.$2 $3"));
  expect(await setsOf()).toEqual([
    `image/avif 480.avif 480w, 768.avif 768w, 1200.avif 1200w, 1600.avif 1600w`,
    `image/webp 480.webp 480w, 768.webp 768w, 1200.webp 1200w, 1600.webp 1600w`,
    `img 480.jpg 480w, 768.jpg 768w, 1200.jpg 1200w, 1600.jpg 1600w`,
  ]);
  await expect(cover).toHaveAttribute("sizes", "(min-width: 896px) 848px, calc(100vw - 48px)");
  // The browser takes a modern format at 768 px, the narrowest made that covers 327 px at 2×, not
  // the 1600 px fallback nor the upload itself.
  await expect
    .poll(() => cover.evaluate((img: HTMLImageElement) => (img.complete ? img.currentSrc : "")))
    .toMatch(/\/media\/[0-9a-f]{16}-768\.(?:avif|webp)$/);
  const chosen = await cover.evaluate((img: HTMLImageElement) => img.currentSrc);
  const file = await page.request.get(chosen);
  const bytes = (await file.body()).length;
  console.log(`a 375 px phone at 2× loads ${new URL(chosen).pathname}: ${bytes} B`);
  expect(bytes).toBeLessThan(200_000);
  // Named by its content hash, so kept a year: a changed photo gets a new name.
  expect(file.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  // Each format goes out as its image type, as the page's <source type> says, never as
  // application/octet-stream.
  const firstFiles = await picture.evaluate((element) => [
    ...[...element.querySelectorAll("source")].map((source) => ({
      type: source.type,
      url: source.srcset.split(" ")[0] ?? "",
    })),
    { type: "image/jpeg", url: element.querySelector("img")?.srcset.split(" ")[0] ?? "" },
  ]);
  expect(firstFiles.map(({ type }) => type)).toEqual(["image/avif", "image/webp", "image/jpeg"]);
  for (const { type, url } of firstFiles)
    expect((await page.request.get(new URL(url, chosen).href)).headers()["content-type"], url).toBe(type);
});
