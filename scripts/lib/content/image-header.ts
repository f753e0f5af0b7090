/**
 * What an image file is, read from its first bytes by this code alone, before sharp (and the
 * libraries under it) is given the file: its format, and for a raster image its width and height
 * as its header states them, so a file that is not what its name says, or one too large to
 * decode, is refused with one line (docs/content-editing.md, "What a content file may hold").
 */

export type ImageFormat = "png" | "jpeg" | "webp" | "avif" | "svg";

export type ImageHeader =
  | { ok: true; format: ImageFormat; width?: number; height?: number }
  | { ok: false; format?: ImageFormat; reason: string };

const NAMES: Record<ImageFormat, string> = {
  png: "a PNG",
  jpeg: "a JPEG",
  webp: "a WebP",
  avif: "an AVIF",
  svg: "an SVG",
};

/** The format a file name promises: `.png`, `.jpg` or `.jpeg`, `.webp`, `.avif`, `.svg`. */
export function formatOfName(name: string): ImageFormat | undefined {
  const extension = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
  if (extension === "jpg" || extension === "jpeg") return "jpeg";
  return (["png", "webp", "avif", "svg"] as const).find((format) => format === extension);
}

/** The human name of a format with its article (`a PNG`, `an AVIF`), for a fault's line. */
export function nameOfFormat(format: ImageFormat): string {
  return NAMES[format];
}

/** Reads the header of `bytes`; `ok: false` when it is no image of the known formats, or its header is broken. */
export function readImageHeader(bytes: Buffer): ImageHeader {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    if (bytes.length < 24 || bytes.toString("latin1", 12, 16) !== "IHDR")
      return { ok: false, format: "png", reason: "its PNG header is cut short" };
    return { ok: true, format: "png", width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpegHeader(bytes);
  if (bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP")
    return webpHeader(bytes);
  if (bytes.toString("latin1", 4, 8) === "ftyp" && isAvif(bytes)) return avifHeader(bytes);
  if (isSvg(bytes)) return { ok: true, format: "svg" };
  return { ok: false, reason: "its bytes are not a PNG, JPEG, WebP, AVIF or SVG image" };
}

/** A JPEG's size is in its first start-of-frame segment (SOF0–SOF15, less DHT, JPG and DAC). */
function jpegHeader(bytes: Buffer): ImageHeader {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) break;
    const marker = bytes[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const length = bytes.readUInt16BE(offset + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame && offset + 9 <= bytes.length) {
      return {
        ok: true,
        format: "jpeg",
        height: bytes.readUInt16BE(offset + 5),
        width: bytes.readUInt16BE(offset + 7),
      };
    }
    if (marker === 0xda || length < 2) break;
    offset += 2 + length;
  }
  return { ok: false, format: "jpeg", reason: "its JPEG header has no frame size" };
}

/** A WebP's size is in its first chunk: lossy (VP8), lossless (VP8L) or extended (VP8X). */
function webpHeader(bytes: Buffer): ImageHeader {
  const chunk = bytes.toString("latin1", 12, 16);
  if (chunk === "VP8 " && bytes.length >= 30 && bytes.readUIntBE(23, 3) === 0x9d012a) {
    return {
      ok: true,
      format: "webp",
      width: bytes.readUInt16LE(26) & 0x3fff,
      height: bytes.readUInt16LE(28) & 0x3fff,
    };
  }
  if (chunk === "VP8L" && bytes.length >= 25 && bytes[20] === 0x2f) {
    const bits = bytes.readUInt32LE(21);
    return { ok: true, format: "webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X" && bytes.length >= 30) {
    return {
      ok: true,
      format: "webp",
      width: bytes.readUIntLE(24, 3) + 1,
      height: bytes.readUIntLE(27, 3) + 1,
    };
  }
  return { ok: false, format: "webp", reason: "its WebP header has no frame size" };
}

function isAvif(bytes: Buffer): boolean {
  const size = bytes.readUInt32BE(0);
  if (size < 16 || size > bytes.length) return false;
  for (let offset = 8; offset + 4 <= size; offset += 4) {
    if (offset === 12) continue; // the minor version, not a brand
    const brand = bytes.toString("latin1", offset, offset + 4);
    if (brand === "avif" || brand === "avis") return true;
  }
  return false;
}

/**
 * An AVIF's size is in its `ispe` properties (meta → iprp → ipco); the largest is taken, so an
 * image with a thumbnail or an alpha plane is held to its largest plane.
 */
function avifHeader(bytes: Buffer): ImageHeader {
  let largest: { width: number; height: number } | undefined;
  const walk = (start: number, end: number, depth: number) => {
    let offset = start;
    while (offset + 8 <= end && depth < 4) {
      let size = bytes.readUInt32BE(offset);
      const type = bytes.toString("latin1", offset + 4, offset + 8);
      let header = 8;
      if (size === 1) {
        if (offset + 16 > end) return;
        size = Number(bytes.readBigUInt64BE(offset + 8));
        header = 16;
      } else if (size === 0) size = end - offset;
      if (size < header || offset + size > end) return;
      if (type === "meta") walk(offset + header + 4, offset + size, depth + 1);
      else if (type === "iprp" || type === "ipco") walk(offset + header, offset + size, depth + 1);
      else if (type === "ispe" && size >= header + 12) {
        const width = bytes.readUInt32BE(offset + header + 4);
        const height = bytes.readUInt32BE(offset + header + 8);
        if (!largest || width * height > largest.width * largest.height) largest = { width, height };
      }
      offset += size;
    }
  };
  walk(0, bytes.length, 0);
  return largest
    ? { ok: true, format: "avif", ...largest }
    : { ok: false, format: "avif", reason: "its AVIF header has no image size (ispe)" };
}

/** An SVG is text whose first element is `<svg` (after an XML declaration, comments or a doctype). */
function isSvg(bytes: Buffer): boolean {
  const start = bytes.toString("utf8", 0, Math.min(bytes.length, 4096)).replace(/^\uFEFF/, "");
  const rest = start.replace(/^(?:\s+|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)*/i, "");
  return /^<svg[\s>]/.test(rest);
}
