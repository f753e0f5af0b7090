import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResponsivePicture } from "~/components/responsive-picture";
import { MAX_IMAGE_PIXELS } from "../../scripts/lib/content/limits";
import { responsiveImage } from "../../scripts/media/responsive-image";
import { writeLargePhoto } from "../support/large-photo";

const work = mkdtempSync(join(tmpdir(), "responsive-image-"));
const options = {
  outDir: join(work, "public", "media"),
  urlBase: "/media",
  cacheDir: join(work, "cache"),
  maxPixels: MAX_IMAGE_PIXELS,
};
const photo = join(work, "photo.jpg");

let sourceBytes = 0;
beforeAll(async () => {
  sourceBytes = await writeLargePhoto(photo);
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const bytesOf = (url: string) => statSync(join(options.outDir, url.replace("/media/", ""))).size;
const urlsOf = (srcset: string) => srcset.split(", ").map((candidate) => candidate.split(" ")[0] ?? "");

describe("responsiveImage", () => {
  it("makes AVIF, WebP and JPEG at each width up to 1600, with the size in the source's proportions", async () => {
    expect(sourceBytes).toBeGreaterThan(3_500_000);
    const image = await responsiveImage(photo, options);
    expect(image).toMatchObject({
      width: 1600,
      height: 1200,
      src: expect.stringMatching(/^\/media\/[0-9a-f]{16}-1600\.jpg$/),
    });
    expect(image.sources.map((source) => source.type)).toEqual(["image/avif", "image/webp"]);
    for (const srcset of [image.srcset, ...image.sources.map((source) => source.srcset)]) {
      expect(srcset.split(", ").map((candidate) => candidate.split(" ")[1])).toEqual([
        "480w",
        "768w",
        "1200w",
        "1600w",
      ]);
    }
    const avif = await sharp(
      join(options.outDir, urlsOf(image.sources[0]?.srcset ?? "")[1]?.replace("/media/", "") ?? ""),
    ).metadata();
    expect(avif).toMatchObject({ format: "heif", width: 768, height: 576 });
  }, 120_000);

  it("sends a phone (390 px wide, 3× density: the 1200 w candidate) a fraction of the 4 MB photo", async () => {
    const image = await responsiveImage(photo, options);
    const phone = (srcset: string) => bytesOf(urlsOf(srcset)[2] ?? "");
    const avif = phone(image.sources[0]?.srcset ?? "");
    const webp = phone(image.sources[1]?.srcset ?? "");
    const jpeg = phone(image.srcset);
    console.log(
      `source ${sourceBytes} B; 1200 w: avif ${avif} B, webp ${webp} B, jpeg ${jpeg} B; largest file ${Math.max(...readdirSync(options.outDir).map((file) => statSync(join(options.outDir, file)).size))} B`,
    );
    for (const bytes of [avif, webp, jpeg]) expect(bytes).toBeLessThan(sourceBytes / 4);
    for (const file of readdirSync(options.outDir))
      expect(statSync(join(options.outDir, file)).size).toBeLessThan(sourceBytes / 2);
  }, 120_000);

  it("reuses the cache for bytes it has seen: a rebuild into an empty folder only copies", async () => {
    const first = await responsiveImage(photo, options);
    rmSync(options.outDir, { recursive: true });
    const started = performance.now();
    const again = await responsiveImage(photo, options);
    const elapsed = performance.now() - started;
    console.log(`cached rebuild: ${elapsed.toFixed(1)} ms`);
    expect(again).toEqual(first);
    expect(readdirSync(options.outDir)).toHaveLength(12);
    expect(elapsed).toBeLessThan(1000);
  }, 120_000);

  it("never enlarges: a 600 px image gives 480 w and 600 w, and keeps a PNG's transparency", async () => {
    const small = join(work, "logo.png");
    await sharp({
      create: { width: 600, height: 300, channels: 4, background: { r: 114, g: 85, b: 247, alpha: 0.5 } },
    })
      .png()
      .toFile(small);
    const image = await responsiveImage(small, options);
    expect(image).toMatchObject({ width: 600, height: 300, src: expect.stringMatching(/-600\.png$/) });
    expect(image.srcset).toMatch(/-480\.png 480w, .*-600\.png 600w$/);
  });

  it("a changed file is made anew (its hash differs)", async () => {
    const first = await responsiveImage(photo, options);
    const edited = join(work, "edited.jpg");
    writeFileSync(edited, await sharp(photo).flop().jpeg({ quality: 80 }).toBuffer());
    const second = await responsiveImage(edited, options);
    expect(second.src).not.toBe(first.src);
  }, 120_000);

  it("renders as <picture> with AVIF and WebP sources and an <img> with srcset, sizes, width and height", async () => {
    const image = await responsiveImage(photo, options);
    const html = renderToStaticMarkup(
      createElement(ResponsivePicture, {
        image,
        alt: "The PawPal app on a phone",
        sizes: "(min-width: 1024px) 768px, 100vw",
        priority: true,
      }),
    );
    const sizes = 'sizes="(min-width: 1024px) 768px, 100vw"';
    expect(html).toBe(
      `<picture><source type="image/avif" srcSet="${image.sources[0]?.srcset}" ${sizes}/><source type="image/webp" srcSet="${image.sources[1]?.srcset}" ${sizes}/>` +
        `<img src="${image.src}" srcSet="${image.srcset}" ${sizes} width="1600" height="1200" alt="The PawPal app on a phone" fetchpriority="high"/></picture>`,
    );
    expect(html).not.toContain("style=");
  }, 120_000);
});
