/**
 * Reads a packed release (tests/fixtures/releases/<commit>.tar.gz, as scripts/lib/pack-release.ts
 * writes it): its files, their bytes and the release's commit time, without unpacking it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

export interface ArchiveEntry {
  /** As packed: `build/migrations/0001-leads-and-erasures.sql`. */
  name: string;
  /** Seconds since 1970: every entry carries the release commit's time. */
  mtime: number;
  bytes: Buffer;
}

const field = (block: Buffer, from: number, length: number) =>
  block
    .subarray(from, from + length)
    .toString("utf8")
    .replace(/\0.*$/s, "");

/** The regular files of a tar.gz (ustar, as GNU tar writes it with short names). */
export function readArchive(path: string): ArchiveEntry[] {
  const tar = gunzipSync(readFileSync(path));
  const entries: ArchiveEntry[] = [];
  let longName: string | null = null;
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || "0", 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const prefix = field(header, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    const bytes = tar.subarray(at + 512, at + 512 + size);
    longName = null;
    if (type === "L") longName = bytes.toString("utf8").replace(/\0.*$/s, "");
    else if (type === "0" || type === "\0") {
      entries.push({
        name,
        mtime: Number.parseInt(field(header, 136, 12).trim(), 8),
        bytes: Buffer.from(bytes),
      });
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

/** The release archives of `folder` (`<commit>.tar.gz`), newest commit first. */
export function releaseArchives(folder: string): { commit: string; path: string; committedAt: number }[] {
  return readdirSync(folder)
    .filter((file) => /^[0-9a-f]{7,}\.tar\.gz$/.test(file))
    .map((file) => {
      const path = join(folder, file);
      const version = readArchive(path).find((entry) => entry.name === "build/version.txt");
      return { commit: file.replace(/\.tar\.gz$/, ""), path, committedAt: version?.mtime ?? 0 };
    })
    .sort((a, b) => b.committedAt - a.committedAt);
}

/** The migrations a release shipped: `build/migrations/<file>` of its archive, by file name. */
export function archivedMigrations(path: string): Map<string, Buffer> {
  const prefix = "build/migrations/";
  return new Map(
    readArchive(path)
      .filter((entry) => entry.name.startsWith(prefix) && entry.name.endsWith(".sql"))
      .map((entry) => [entry.name.slice(prefix.length), entry.bytes]),
  );
}
