import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { responsiveImage } from "../../scripts/media/responsive-image";
import { expect, test } from "../support/fixtures";
import { freePort, type RunningServer, startServer, stopProcess } from "../support/server-process";

// The site and decap-server are started by the test, each on a port of its own. The editor's
// preview asks the site for an upload by its public path (/uploads/…), which only the build
// publishes (as responsive images): a 404 there is the preview's placeholder, not a fault.
test.use({
  allowedProblems: [
    /^request to another origin: http:\/\/127\.0\.0\.1:\d+\/|^HTTP 404 http:\/\/127\.0\.0\.1:\d+\/uploads\//,
  ],
});

let repo: string;
let decap: ChildProcess;
let server: RunningServer;

test.beforeAll(async () => {
  repo = mkdtempSync(join(tmpdir(), "content-repo-"));
  mkdirSync(join(repo, "content", "case-studies"), { recursive: true });
  const cmsPort = await freePort();
  // As `npm run content` starts it (scripts/content.ts), on a copy of the content folder.
  decap = spawn(process.execPath, ["node_modules/decap-server/dist/index.js"], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      PORT: String(cmsPort),
      BIND_HOST: "127.0.0.1",
      MODE: "fs",
      GIT_REPO_DIRECTORY: repo,
    },
    stdio: "ignore",
  });
  server = await startServer({ env: { CMS_LOCAL_BACKEND: `http://127.0.0.1:${cmsPort}/api/v1` } });
});

test.afterAll(async () => {
  await server?.stop();
  if (decap) await stopProcess(decap);
  rmSync(repo, { recursive: true, force: true });
});

test("an editor adds a case study with a photo in /admin: the file lands in content/case-studies/, the photo in content/uploads/, and the build makes it responsive", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const photo = join(repo, "ledgerly-office.jpg");
  await sharp({ create: { width: 2400, height: 1600, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .jpeg({ quality: 95 })
    .toFile(photo);

  await page.goto(`${server.url}/admin/`);
  await page.getByRole("button", { name: "Login" }).click();
  await page.getByRole("link", { name: "Create entry of type Case studies" }).click();
  await page.getByLabel("Title", { exact: true }).fill("Ledgerly closes the books in a day");
  await page.getByLabel("Client", { exact: true }).fill("Ledgerly");
  await page.getByLabel("Sector", { exact: true }).fill("Fintech");
  await page
    .getByLabel("Summary", { exact: true })
    .fill("A month-end close that took a week now takes a day, for 40 accountants.");
  await page.getByLabel("Date", { exact: true }).fill("2026-11-20");
  await page
    .getByLabel("Cover image's alt text", { exact: true })
    .fill("Ledgerly's team at their desks in Pune");
  await page.getByRole("button", { name: "Choose an image" }).click();
  // The media library's Upload button is a label around this input.
  await page.getByRole("dialog").locator('input[type="file"]').setInputFiles(photo);
  await page.getByRole("button", { name: "Choose selected" }).click();
  await page.locator('[data-slate-editor="true"]').click();
  await page.keyboard.type("Ledgerly's accountants closed each month by hand.");
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByText("Publish now").click();

  const entry = join(repo, "content", "case-studies", "ledgerly-closes-the-books-in-a-day.md");
  await expect.poll(() => existsSync(entry), { timeout: 30_000 }).toBe(true);
  const text = readFileSync(entry, "utf8");
  expect(text).toMatch(/^---\n/);
  expect(text).toContain("title: Ledgerly closes the books in a day");
  expect(text).toContain("cover: /uploads/ledgerly-office.jpg");
  expect(text).toContain("coverAlt: Ledgerly's team at their desks in Pune");
  expect(text).toContain("Ledgerly's accountants closed each month by hand.");
  const upload = join(repo, "content", "uploads", "ledgerly-office.jpg");
  expect(readFileSync(upload).equals(readFileSync(photo))).toBe(true);

  // What the build makes of the photo the file names (the case-study page renders it with <ResponsivePicture>).
  const outDir = join(repo, "public", "media");
  const image = await responsiveImage(upload, { outDir, urlBase: "/media", cacheDir: join(repo, ".cache") });
  expect(image).toMatchObject({ width: 1600, height: 1067 });
  expect(image.sources.map((source) => source.type)).toEqual(["image/avif", "image/webp"]);
  expect(readdirSync(outDir)).toHaveLength(12);
});
