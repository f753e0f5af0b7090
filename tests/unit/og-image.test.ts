import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { OG_IMAGE_SIZE, ogImagePathOf } from "~/media/og-path";
import { ogImagePng } from "../../scripts/media/og-image";

/** The width and height a PNG's IHDR chunk declares: bytes 16–23, after the signature and the chunk's head. */
function pngHeader(png: Buffer) {
  return {
    signature: png.subarray(0, 8).toString("hex"),
    chunk: png.subarray(12, 16).toString("latin1"),
    width: png.readUInt32BE(16),
    height: png.readUInt32BE(20),
  };
}

/** How many pixels of two same-sized images differ. */
async function differingPixels(a: Buffer, b: Buffer): Promise<number> {
  const [left, right] = await Promise.all([a, b].map((png) => sharp(png).raw().toBuffer()));
  let count = 0;
  for (let index = 0; left && right && index < left.length; index += 4) {
    if (left.readUInt32BE(index) !== right.readUInt32BE(index)) count += 1;
  }
  return count;
}

const brand = "Nirmaan Digital";

describe("ogImagePng", () => {
  it("is a real PNG of 1200 × 630", async () => {
    const png = await ogImagePng({ title: "PawPal: vets booked in two taps", eyebrow: "Case study", brand });
    console.log(`Open Graph image: ${png.length} B`);
    expect(pngHeader(png)).toEqual({ signature: "89504e470d0a1a0a", chunk: "IHDR", ...OG_IMAGE_SIZE });
    expect(await sharp(png).metadata()).toMatchObject({ format: "png", ...OG_IMAGE_SIZE });
  });

  it("draws the title: two titles differ from each other and from an image without one", async () => {
    const blank = await ogImagePng({ title: "", brand });
    const one = await ogImagePng({ title: "PawPal: vets booked in two taps", brand });
    const other = await ogImagePng({ title: "Ledgerly: books closed in a day", brand });
    expect(await differingPixels(blank, one)).toBeGreaterThan(10_000);
    expect(await differingPixels(one, other)).toBeGreaterThan(10_000);
  });

  it("draws a Hindi title in Devanagari, not as empty boxes", async () => {
    const blank = await ogImagePng({ title: "", brand });
    const hindi = await ogImagePng({ title: "छोटे व्यवसायों के लिए वेबसाइट", brand });
    const other = await ogImagePng({ title: "वेबसाइट की गति क्यों मायने रखती है", brand });
    expect(await differingPixels(blank, hindi)).toBeGreaterThan(10_000);
    expect(await differingPixels(hindi, other)).toBeGreaterThan(10_000);
  });

  it("is deterministic: the same input gives the same bytes", async () => {
    const input = { title: "Why a fast website sells more", eyebrow: "Insight", brand };
    expect((await ogImagePng(input)).equals(await ogImagePng(input))).toBe(true);
  });
});

describe("ogImagePathOf", () => {
  it("names the image under /og/<kind>/<slug>.png and refuses what is not a slug", () => {
    expect(ogImagePathOf("case-studies", "pawpal")).toBe("/og/case-studies/pawpal.png");
    expect(ogImagePathOf("home", "index")).toBe("/og/home/index.png");
    expect(() => ogImagePathOf("case-studies", "../etc")).toThrow(/lower-case letters/);
  });
});
