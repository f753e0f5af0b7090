/** The folder field metrics store: two JSON-lines files in the data folder, rotated by age and size. */
import { open, rename, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { appendLines, openForAppend } from "~/leads/folder/data-files.server";
import type { TapRecord, VitalsRecord } from "~/vitals/metrics";
import { PRUNE_INTERVAL_MS, RETENTION_MS, type VitalsStore } from "~/vitals/store.server";

export const VITALS_FILE = "vitals.jsonl";
export const PREVIOUS_VITALS_FILE = "vitals.1.jsonl";

/**
 * The current file starts afresh (the previous one is replaced) once it is this old or
 * full, and the previous file is deleted once its newest line is this old: so no line
 * outlives RETENTION_MS, even counting a prune interval of delay.
 */
const SEGMENT_MS = RETENTION_MS / 2 - PRUNE_INTERVAL_MS;

/**
 * Field metrics in `dir`: `vitals.jsonl`, and `vitals.1.jsonl` before it. The current file
 * is rotated into the previous one (which is dropped) when a write would take it past
 * `maxBytes` or it spans half the retention period, so the two together never pass
 * 2 × `maxBytes` and the oldest data goes first. Writes and rotations run one at a time; what
 * arrives while one runs is written together in the next.
 * A folder that cannot be written logs one line (again only after it has worked in
 * between) and never throws.
 */
export function createFolderVitalsStore(options: {
  dir: string;
  maxBytes: number;
  now?: () => number;
  log?: (line: string) => void;
}): VitalsStore {
  const { dir, maxBytes, now = Date.now, log = console.error } = options;
  const current = join(dir, VITALS_FILE);
  const previous = join(dir, PREVIOUS_VITALS_FILE);
  /** When the current file's first line was written; undefined until read from disk. */
  let segmentStart: number | undefined;
  let failing = false;
  let tail: Promise<unknown> = Promise.resolve();

  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task);
    tail = run.catch(() => {});
    return run;
  };

  const fail = (error: unknown): false => {
    if (!failing) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      log(
        `vitals: cannot write field metrics to ${current} (${code}); make ENQUIRY_STORE_DIR a writable folder. The site keeps serving.`,
      );
    }
    failing = true;
    return false;
  };

  async function startOfCurrent(): Promise<number | null> {
    if (segmentStart !== undefined) return segmentStart;
    const handle = await open(current, "r").catch(() => null);
    if (handle === null) return null;
    try {
      const { bytesRead, buffer } = await handle.read({ buffer: Buffer.alloc(512), position: 0 });
      const firstLine = buffer.subarray(0, bytesRead).toString("utf8").split("\n")[0] ?? "";
      const at = Date.parse((JSON.parse(firstLine) as { at?: string }).at ?? "");
      // A first line that cannot be read dates the file as old: it is rotated out.
      segmentStart = Number.isFinite(at) ? at : 0;
    } catch {
      segmentStart = 0;
    } finally {
      await handle.close();
    }
    return segmentStart;
  }

  async function rotate(): Promise<void> {
    await rename(current, previous);
    segmentStart = undefined;
  }

  /** Whether the current file, at `size` bytes with `adding` more, is to be rotated first. */
  async function rotationDue(size: number, adding: number): Promise<boolean> {
    if (size === 0) return false;
    const start = await startOfCurrent();
    return size + adding > maxBytes || (start !== null && now() - start >= SEGMENT_MS);
  }

  /** Writes a batch, in parts of at most `maxBytes` (a second of beacons can pass a small limit). */
  async function write(records: (VitalsRecord | TapRecord)[]): Promise<boolean> {
    let written = true;
    let part: string[] = [];
    let partBytes = 0;
    for (const record of records) {
      const line = `${JSON.stringify(record)}\n`;
      const bytes = Buffer.byteLength(line);
      if (part.length > 0 && partBytes + bytes > maxBytes) {
        written = (await writePart(part.join(""))) && written;
        part = [];
        partBytes = 0;
      }
      part.push(line);
      partBytes += bytes;
    }
    return part.length === 0 ? written : (await writePart(part.join(""))) && written;
  }

  async function writePart(text: string): Promise<boolean> {
    const bytes = Buffer.byteLength(text);
    if (bytes > maxBytes) return false;
    try {
      let { handle, size } = await openForAppend(dir, VITALS_FILE);
      try {
        if (await rotationDue(size, bytes)) {
          await rotate();
          const fresh = await openForAppend(dir, VITALS_FILE);
          await handle.close();
          ({ handle, size } = fresh);
        }
        if (size === 0) segmentStart = now();
        await appendLines(handle, size, text);
      } finally {
        await handle.close();
      }
      failing = false;
      return true;
    } catch (error) {
      return fail(error);
    }
  }

  async function prune(): Promise<void> {
    try {
      const size = await stat(current).then(
        (stats) => stats.size,
        () => 0,
      );
      if (await rotationDue(size, 0)) await rotate();
      const previousEnd = await stat(previous).then(
        (stats) => stats.mtimeMs,
        () => null,
      );
      if (previousEnd !== null && now() - previousEnd >= SEGMENT_MS) await unlink(previous);
    } catch (error) {
      fail(error);
    }
  }

  /** The write not begun yet, which new records join: one fsync for all that arrive meanwhile. */
  let waiting: { records: (VitalsRecord | TapRecord)[]; written: Promise<boolean> } | null = null;

  return {
    append(records) {
      if (waiting) {
        waiting.records.push(...records);
        return waiting.written;
      }
      const batch = { records: [...records], written: Promise.resolve(true) };
      waiting = batch;
      batch.written = serial(() => {
        if (waiting === batch) waiting = null;
        return write(batch.records);
      });
      return batch.written;
    },
    prune: () => serial(prune),
  };
}
