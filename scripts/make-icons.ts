/**
 * One-off generator of the raster icons and the Open Graph image in public/, drawn as HTML/SVG
 * and captured with Chromium (Playwright). Run again after changing the brand:
 *   npx vite-node scripts/make-icons.ts
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { footer } from "../app/content/generated/footer.server";
import { site } from "../app/content/site";
import { CHROMIUM_FLAGS, findChromium } from "./lib/chromium";

const root = join(import.meta.dirname ?? ".", "..");
const publicDir = join(root, "public");
const logoSvg = readFileSync(join(publicDir, "favicon.svg"), "utf8");
const font = readFileSync(
  join(
    root,
    "node_modules/@fontsource-variable/plus-jakarta-sans/files/plus-jakarta-sans-latin-wght-normal.woff2",
  ),
).toString("base64");

const page = (body: string, css: string) => `<!doctype html><html><head><style>
@font-face { font-family: "Jakarta"; src: url(data:font/woff2;base64,${font}) format("woff2"); font-weight: 200 800; }
* { margin: 0; box-sizing: border-box; }
html, body { width: 100%; height: 100%; }
body { font-family: "Jakarta", sans-serif; }
${css}
</style></head><body>${body}</body></html>`;

/** The square mark: the favicon's "N" on full-bleed purple (maskable-safe: the glyph sits inside the 80 % safe zone). */
const squareIcon = (size: number) =>
  page(
    `<div class="icon">${logoSvg.replace('rx="14"', 'rx="0"')}</div>`,
    `.icon { width: ${size}px; height: ${size}px; background: #7255F7; display: grid; place-items: center; }
     .icon svg { width: ${size * 0.8}px; height: ${size * 0.8}px; }`,
  );

const ogImage = page(
  `<div class="card">
    <div class="brand">${logoSvg}<span>${site.name}</span></div>
    <p class="tagline">${footer.tagline}</p>
    <p class="services">Websites · Mobile apps · SaaS · eCommerce · Web applications</p>
    <div class="ring ring-1"></div><div class="ring ring-2"></div>
  </div>`,
  `.card { position: relative; overflow: hidden; width: 1200px; height: 630px; padding: 88px 96px;
      background: linear-gradient(135deg, #7255F7 0%, #5b3fe0 60%, #3a22b8 100%); color: #fff;
      display: flex; flex-direction: column; justify-content: center; gap: 36px; }
   .brand { display: flex; align-items: center; gap: 24px; font-size: 44px; font-weight: 700; letter-spacing: -0.01em; }
   .brand svg { width: 88px; height: 88px; border-radius: 20px; box-shadow: 0 0 0 3px rgba(255,255,255,.85); }
   .tagline { font-size: 68px; line-height: 1.12; font-weight: 800; letter-spacing: -0.02em; max-width: 940px; }
   .services { font-size: 28px; font-weight: 500; color: #e4ddff; }
   .ring { position: absolute; border-radius: 50%; border: 2px solid rgba(255,255,255,.18); }
   .ring-1 { width: 560px; height: 560px; right: -180px; top: -220px; }
   .ring-2 { width: 380px; height: 380px; right: -90px; top: -130px; border-color: rgba(255,255,255,.28); }`,
);

/** An .ico holding one PNG image (supported by every browser since IE Vista-era). */
function pngToIco(png: Buffer, size: number): Buffer {
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size >= 256 ? 0 : size, 6);
  header.writeUInt8(size >= 256 ? 0 : size, 7);
  header.writeUInt8(0, 8); // no palette
  header.writeUInt8(0, 9);
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18); // offset of the image data
  return Buffer.concat([header, png]);
}

const browser = await chromium.launch({
  executablePath: (await findChromium()).executablePath,
  args: CHROMIUM_FLAGS,
});
try {
  const shoot = async (html: string, width: number, height: number) => {
    const tab = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
    await tab.setContent(html);
    await tab.evaluate(() => document.fonts.ready);
    const png = await tab.screenshot({ type: "png" });
    await tab.close();
    return png;
  };
  for (const [file, size] of [
    ["apple-touch-icon.png", 180],
    ["icon-192.png", 192],
    ["icon-512.png", 512],
  ] as const) {
    writeFileSync(join(publicDir, file), await shoot(squareIcon(size), size, size));
  }
  // The favicon keeps the rounded corners of favicon.svg on a transparent background.
  const favicon = await (async () => {
    const tab = await browser.newPage({ viewport: { width: 32, height: 32 }, deviceScaleFactor: 1 });
    await tab.setContent(page(logoSvg, "svg { width: 32px; height: 32px; display: block; }"));
    const png = await tab.screenshot({ type: "png", omitBackground: true });
    await tab.close();
    return png;
  })();
  writeFileSync(join(publicDir, "favicon.ico"), pngToIco(favicon, 32));
  writeFileSync(join(publicDir, "og-image.png"), await shoot(ogImage, 1200, 630));
  console.log("wrote favicon.ico, apple-touch-icon.png, icon-192.png, icon-512.png, og-image.png");
} finally {
  await browser.close();
}
