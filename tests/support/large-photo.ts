/** A phone-sized photo for the image tests, made on the spot (no large file is committed). */
import { statSync } from "node:fs";
import sharp from "sharp";

/**
 * Writes a 4000 × 3000 photo-like JPEG (a gradient under coarse detail and fine noise, which
 * compresses as a photo does) of about 4 MB to `path`, as a phone takes; returns its size in bytes.
 */
export async function writeLargePhoto(path: string): Promise<number> {
  const width = 4000;
  const height = 3000;
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let index = 0; index < pixels.length; index += 1) {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    const pixel = Math.floor(index / 3);
    const x = pixel % width;
    const y = Math.floor(pixel / width);
    const base = (x / width) * 160 + (y / height) * 60;
    // Detail at a coarser scale too (the stripes and tiles of a scene), which survives a resize
    // as a photo's does: fine noise alone would average out and flatter the smaller widths.
    const detail = (((x >> 4) * 7 + (y >> 4) * 13 + (index % 3) * 5) % 17) * 4 - 32;
    pixels[index] = Math.max(0, Math.min(255, base + detail + ((seed >> 16) % 48) - 24));
  }
  await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toFile(path);
  return statSync(path).size;
}
