import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContentImage } from "~/components/content-image";
import { HomeContentProvider } from "~/components/home/home-content";
import { PartnersCarousel } from "~/components/home/partners-carousel";
import { ServiceBody } from "~/components/home/service-body";
import type { ContentImageData } from "~/content/entries";
import { homeContent } from "~/content/home.server";
import { IMAGE_WIDTHS } from "~/media/responsive-image";
import { GENERATED_DIR, writeGenerated } from "../../scripts/lib/content/generate";
import { MEDIA_DIR, makeImagesResponsive } from "../../scripts/lib/content/images";
import { formatFault, type LoadedEntry, loadContent } from "../../scripts/lib/content/load";
import { FIXTURE_CONTENT_DIR } from "../support/fixture-content";
import { writeLargePhoto } from "../support/large-photo";

// The content build's image step on a copy of the tests' content to which an editor has added a case study
// with a 4 MB phone photo as its cover, and one of the sample SVGs among its images.
const root = mkdtempSync(join(tmpdir(), "content-images-"));
const photo = join(root, "content", "images", "ledgerly-office.jpg");
const caseStudy = `---
title: Ledgerly closes the books in a day
client: Ledgerly
sector: Fintech
summary: A month-end close that took a week now takes a day, for 40 accountants.
date: 2026-11-20
stack: [Remix]
results:
  - value: 5×
    label: faster month-end close
cover:
  src: images/ledgerly-office.jpg
  alt: Ledgerly's team at their desks in Pune
images:
  - src: images/case-study-pawpal.svg
    alt: The PawPal app on a phone
---
Ledgerly's accountants closed each month by hand.
`;

/** The phone of the brief: 375 CSS px wide at twice the density, the image at the page's width less its margins. */
const phone = { width: 375, density: 2, slot: 375 - 48 };
const sizes = "(min-width: 896px) 848px, calc(100vw - 48px)";

let sourceBytes = 0;
let study: LoadedEntry;
let made: Awaited<ReturnType<typeof makeImagesResponsive>>;
beforeAll(async () => {
  cpSync(resolve(import.meta.dirname, "../..", FIXTURE_CONTENT_DIR), join(root, "content"), {
    recursive: true,
  });
  writeFileSync(join(root, "content", "case-studies", "ledgerly.md"), caseStudy);
  sourceBytes = await writeLargePhoto(photo);
  const { content, faults } = await loadContent(root);
  expect(faults.map(formatFault)).toEqual([]);
  made = await makeImagesResponsive(root, content);
  writeGenerated(root, content);
  const found = content["case-studies"].find((entry) => entry.slug === "ledgerly");
  if (!found) throw new Error("the loader dropped the new case study");
  study = found;
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cover = () => study.data.cover as ContentImageData;
const svg = () => (study.data.images as ContentImageData[])[0] as ContentImageData;
const mediaBytes = (url: string) => statSync(join(root, MEDIA_DIR, url.replace(/^\/media\//, ""))).size;
/** What a browser picks from a `w` srcset: the narrowest candidate at least slot × density wide. */
const pick = (srcset: string) => {
  const candidates = srcset
    .split(", ")
    .map((candidate) => {
      const [url = "", width = ""] = candidate.split(" ");
      return { url, width: Number.parseInt(width, 10) };
    })
    .sort((a, b) => a.width - b.width);
  return candidates.find((c) => c.width >= phone.slot * phone.density) ?? candidates[candidates.length - 1];
};

describe("the content build's images", () => {
  it("makes the editor's 4 MB photo every width up to 1600 px in AVIF, WebP and JPEG, with its upright size", () => {
    expect(sourceBytes).toBeGreaterThan(3_500_000);
    expect(made).toMatchObject({ images: 1, files: IMAGE_WIDTHS.length * 3 });
    expect(readdirSync(join(root, MEDIA_DIR))).toHaveLength(IMAGE_WIDTHS.length * 3);
    const image = cover();
    expect(image).toMatchObject({
      alt: "Ledgerly's team at their desks in Pune",
      width: 1600,
      height: 1200,
      src: expect.stringMatching(/^\/media\/[0-9a-f]{16}-1600\.jpg$/),
    });
    expect(image.responsive?.sources.map((source) => source.type)).toEqual(["image/avif", "image/webp"]);
    for (const srcset of [
      image.responsive?.srcset ?? "",
      ...(image.responsive?.sources ?? []).map((s) => s.srcset),
    ])
      expect(srcset.split(", ").map((candidate) => candidate.split(" ")[1])).toEqual(
        IMAGE_WIDTHS.map((width) => `${width}w`),
      );
  });

  it("sends a 375 px phone at 2× density the 768 px file, under 200 KB in every format, not the 4 MB photo", () => {
    const responsive = cover().responsive;
    const picked = [responsive?.sources[0]?.srcset, responsive?.sources[1]?.srcset, responsive?.srcset].map(
      (srcset) => pick(srcset ?? ""),
    );
    const bytes = picked.map((candidate) => mediaBytes(candidate?.url ?? ""));
    console.log(
      `source ${sourceBytes} B; a 375 px phone at 2×: ${picked.map((c, i) => `${c?.url.split(".").pop()} ${c?.width} w ${bytes[i]} B`).join(", ")}`,
    );
    expect(picked.map((candidate) => candidate?.width)).toEqual([768, 768, 768]);
    for (const size of bytes) expect(size).toBeLessThan(200_000);
    for (const file of readdirSync(join(root, MEDIA_DIR)))
      expect(statSync(join(root, MEDIA_DIR, file)).size).toBeLessThan(sourceBytes / 4);
  });

  it("passes an SVG through as it is, with the width and height of its viewBox", async () => {
    expect(svg()).toEqual({
      src: "images/case-study-pawpal.svg",
      alt: "The PawPal app on a phone",
      width: 1200,
      height: 520,
    });
    const { width, height } = await sharp(
      join(root, "content", "images", "case-study-pawpal.svg"),
    ).metadata();
    expect({ width, height }).toEqual({ width: 1200, height: 520 });
  });

  it("writes the resolved image data into the generated module: the photo's URLs in public/media/, the SVG as an asset import", () => {
    const module = readFileSync(join(root, GENERATED_DIR, "case-studies.server.ts"), "utf8");
    expect(module).toContain(`"src": "${cover().src}"`);
    expect(module).toContain(`"type": "image/avif"`);
    expect(module).toMatch(/\/media\/[0-9a-f]{16}-480\.webp 480w/);
    expect(module).not.toContain("ledgerly-office.jpg");
    expect(module).toMatch(
      /^import image\d+ from "\.\.\/\.\.\/\.\.\/content\/images\/case-study-pawpal\.svg";$/m,
    );
  });

  it("renders the photo as a <picture> (lazy, or fetched first as the page's largest image) and the SVG as an <img>, all with width and height", () => {
    const render = (image: ContentImageData, priority: boolean) =>
      renderToStaticMarkup(createElement(ContentImage, { image, sizes, priority }));
    const lazy = render(cover(), false);
    expect(lazy).toMatch(
      /^<picture><source type="image\/avif" srcSet="[^"]+" sizes="[^"]+"\/><source type="image\/webp"/,
    );
    expect(lazy).toContain(
      `<img src="${cover().src}" srcSet="${cover().responsive?.srcset}" sizes="${sizes}" width="1600" height="1200" alt="Ledgerly&#x27;s team at their desks in Pune" loading="lazy" decoding="async"/></picture>`,
    );
    const first = render(cover(), true);
    expect(first).toContain(
      `height="1200" alt="Ledgerly&#x27;s team at their desks in Pune" fetchpriority="high"/>`,
    );
    expect(first).not.toContain("loading=");
    expect(render(svg(), false)).toBe(
      `<img src="images/case-study-pawpal.svg" alt="The PawPal app on a phone" width="1200" height="520" loading="lazy" decoding="async"/>`,
    );
    for (const html of [lazy, first]) expect(html).not.toContain("style=");
  });

  it("shows a raster service illustration and partner logo on the home page as a lazy <picture> too", () => {
    const set = cover().responsive;
    const [service] = homeContent.services;
    const [partner] = homeContent.partners;
    if (!set || !service || !partner) throw new Error("no responsive set, service or partner");
    const html = renderToStaticMarkup(
      createElement(
        HomeContentProvider,
        { value: homeContent },
        createElement(ServiceBody, { service: { ...service, imageSet: set }, showImage: true }),
        createElement(PartnersCarousel, { partners: [{ ...partner, logoSet: set }] }),
      ),
    );
    const pictures = html.match(/<picture>.*?<\/picture>/g) ?? [];
    expect(pictures).toHaveLength(2);
    for (const picture of pictures) {
      expect(picture).toContain(`<source type="image/avif" srcSet="${set.sources[0]?.srcset}"`);
      expect(picture).toMatch(
        / width="1600" height="1200" alt="[^"]+" class="[^"]+" loading="lazy" decoding="async"\/>/,
      );
    }
    expect(pictures[0]).toContain(`alt="${service.imageAlt}"`);
    expect(pictures[1]).toContain(`alt="${partner.name}" class="h-12 w-auto"`);
    expect(pictures[1]).toContain('sizes="200px"');
  });
});
