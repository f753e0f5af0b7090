import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import matter from "gray-matter";
import sharp from "sharp";
import { expect, test } from "../support/fixtures";
import { freePort, type RunningServer, startServer, stopProcess } from "../support/server-process";

// The site and decap-server are started by the test, each on a port of its own. decap-server
// works on a copy of this checkout (its tracked files, node_modules linked), which the test then
// builds with `npm run build` and serves, as an editor's machine would. The editor's preview asks
// the site for an upload by its public path (images/…), which only the build publishes: a 404
// there is the preview's placeholder, not a fault.
test.use({
  allowedProblems: [
    /^request to another origin: http:\/\/127\.0\.0\.1:\d+\/|^HTTP 404 http:\/\/127\.0\.0\.1:\d+\/(?:admin\/)?images\//,
  ],
});

const project = process.cwd();
let checkout: string;
let decap: ChildProcess;
let server: RunningServer;
let built: RunningServer | undefined;

/** A copy of the checkout's tracked files as they are in the working tree, with its node_modules linked. */
function copyCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), "content-repo-"));
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: project, encoding: "utf8" }).split("\0");
  for (const file of files.filter((name) => name && existsSync(join(project, name)))) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(project, file), join(dir, file));
  }
  symlinkSync(join(project, "node_modules"), join(dir, "node_modules"));
  return dir;
}

test.beforeAll(async () => {
  checkout = copyCheckout();
  const cmsPort = await freePort();
  // As `npm run content` starts it (scripts/content.ts), on the copy.
  decap = spawn(process.execPath, ["node_modules/decap-server/dist/index.js"], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      PORT: String(cmsPort),
      BIND_HOST: "127.0.0.1",
      MODE: "fs",
      GIT_REPO_DIRECTORY: checkout,
    },
    stdio: "ignore",
  });
  server = await startServer({ env: { CMS_LOCAL_BACKEND: `http://127.0.0.1:${cmsPort}/api/v1` } });
});

test.afterAll(async () => {
  await built?.stop();
  await server?.stop();
  if (decap) await stopProcess(decap);
  rmSync(checkout, { recursive: true, force: true });
});

test("an editor adds a case study with a photo in /admin: the file lands in content/case-studies/, the photo in content/images/, and after the build /case-studies/<slug> shows it", async ({
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
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByText("Publish now").click();

  const slug = "ledgerly-closes-the-books-in-a-day";
  const entry = join(checkout, "content", "case-studies", `${slug}.md`);
  await expect.poll(() => existsSync(entry), { timeout: 30_000 }).toBe(true);
  const { data, content } = matter(readFileSync(entry, "utf8"));
  expect(data).toMatchObject({
    title: "Ledgerly closes the books in a day",
    client: "Ledgerly",
    sector: "Fintech",
    stack: ["Remix"],
    results: [{ value: "5×", label: "faster month-end close" }],
    cover: { src: `images/${photoName}`, alt: "Ledgerly's team at their desks in Pune" },
  });
  expect(content).toContain("Ledgerly's accountants closed each month by hand.");
  const upload = join(checkout, "content", "images", photoName);
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
});
