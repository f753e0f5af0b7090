import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { readImageHeader } from "../../scripts/lib/content/image-header";

/** A small image with an odd size, so a width read as a height (or off by one) shows. */
const size = { width: 37, height: 21 };
const source = () => sharp({ create: { ...size, channels: 4, background: "#3366ff80" } });

describe("readImageHeader", () => {
  test.each([
    ["png", () => source().png().toBuffer()],
    ["jpeg", () => source().jpeg().toBuffer()],
    ["jpeg", () => source().jpeg({ progressive: true }).withMetadata().toBuffer()],
    ["webp", () => source().webp({ lossless: true }).toBuffer()],
    ["webp", () => source().flatten().webp({ quality: 50 }).toBuffer()],
    ["webp", () => source().webp({ quality: 50 }).toBuffer()],
    ["avif", () => source().avif().toBuffer()],
  ] as const)("reads a %s file's format and size as sharp does", async (format, make) => {
    const bytes = await make();
    const { width, height } = await sharp(bytes).metadata();
    expect({ width, height }).toEqual(size);
    expect(readImageHeader(bytes)).toEqual({ ok: true, format, ...size });
  });

  test("an SVG is text that opens with <svg, after a declaration or a comment", () => {
    const svg =
      '<?xml version="1.0"?>\n<!-- drawn -->\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"/>';
    expect(readImageHeader(Buffer.from(svg))).toEqual({ ok: true, format: "svg" });
    expect(readImageHeader(Buffer.from("<html><svg></svg></html>")).ok).toBe(false);
  });

  test("text, and a header cut short, are no image", () => {
    expect(readImageHeader(Buffer.from("hello"))).toEqual({
      ok: false,
      reason: "its bytes are not a PNG, JPEG, WebP, AVIF or SVG image",
    });
    expect(readImageHeader(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]))).toMatchObject({
      ok: false,
      format: "jpeg",
    });
  });
});
