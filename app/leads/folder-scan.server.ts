import { constants, type Stats } from "node:fs";
import { lstat, mkdir, open, readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { FolderView, Problem } from "~/leads/folder-view.server";
import { TEMP_PREFIX } from "~/leads/folder-writes.server";
import { type Lead, leadFileName, logLeadState, parseLead } from "~/leads/lead";

/** A temporary file this old was left by a crash in the middle of a write, never by a write in progress. */
const TORN_AFTER_MS = 60_000;
/** Files read at once: 10 000 leads scan under a 1 024 file-descriptor limit. */
const READ_CONCURRENCY = 32;
/** A lead file is a few KB; anything this large is not one, and is not read into memory. */
const MAX_FILE_BYTES = 256 * 1024;

const LEAD_FILE = /^\d{13}-[0-9a-f-]{36}\.json$/;
/** Never blocks (a FIFO, a device), never follows a symbolic link. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * The folder store's scan: brings the view up to date with the folder (leads written by
 * another process, by the operator's CLI, or removed), and returns every lead, oldest first.
 * Each entry succeeds or fails alone; only a folder that cannot be listed fails the scan.
 * Scans never overlap: a caller during one gets its result.
 */
export function createFolderScan(view: FolderView): () => Promise<Lead[]> {
  const { folder, create, erased, log, now, cache, fileOf, saving, reported, report, forget, sorted } = view;
  /** Whether the scan under way ran out of file descriptors. */
  let outOfDescriptors = false;

  /** Reads one lead file: regular files only, opened without blocking or following a link. */
  const readLead = async (name: string, path: string): Promise<Problem | null> => {
    const handle = await open(path, READ_FLAGS);
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        return {
          key: "kind",
          line: `${path} is ${kindOf(info)}, not a lead file; skipped: move it out of ${folder}`,
        };
      }
      if (info.size > MAX_FILE_BYTES) {
        return {
          key: "size",
          line: `${path} is ${info.size} bytes, too large for a lead; skipped: move it out of ${folder}`,
        };
      }
      const lead = parseLead(await handle.readFile("utf8"));
      if (!lead) {
        return {
          key: `incomplete:${info.mtimeMs}`,
          line: `${path} is not a complete lead record; skipped (move it away once you have read it)`,
        };
      }
      if (leadFileName(lead) !== name) {
        return {
          key: `misnamed:${info.mtimeMs}`,
          line: `${path} holds lead ${lead.id}, whose file is ${leadFileName(lead)}; skipped and never delivered (a copy made by hand? move it out of ${folder})`,
        };
      }
      // An operator released it from the quarantine: the server's log says so too.
      if (cache.get(name)?.lead.state === "spam" && lead.state !== "spam") logLeadState(lead);
      cache.set(name, { lead, mtimeMs: info.mtimeMs });
      return null;
    } finally {
      await handle.close();
    }
  };

  /** One entry of the folder, on its own: whatever it is, it fails alone. */
  const inspect = async (name: string, time: number, gone: Set<string>) => {
    const path = join(folder, name);
    try {
      // An erase stopped between its record and the unlink: the server finishes it.
      if (gone.has(name.slice(14, -5))) {
        forget(name);
        if (create) await unlink(path);
        return;
      }
      const info = await lstat(path);
      if (name.startsWith(TEMP_PREFIX)) {
        if (!info.isFile()) {
          report(name, {
            key: "kind",
            line: `${path} is ${kindOf(info)}, not a write of the store; move it out of ${folder}`,
          });
          return;
        }
        if (time - info.mtimeMs < TORN_AFTER_MS) return;
        await unlink(path);
        log(`lead store: removed ${path}, a write torn by a crash (no lead was answered from it)`);
        return;
      }
      if (!info.isFile()) {
        forget(name);
        report(name, {
          key: "kind",
          line: `${path} is ${kindOf(info)}, not a lead file; skipped: move it out of ${folder}`,
        });
        return;
      }
      const cached = cache.get(name);
      // A sent lead never changes again; any other may (the deliverer, the operator's retry).
      if (cached && (cached.lead.state === "sent" || cached.mtimeMs === info.mtimeMs)) return;
      const problem = await readLead(name, path);
      if (problem) {
        forget(name);
        report(name, problem);
      } else reported.delete(name);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Removed between readdir and read (retention in another process): nothing to do.
      if (code === "ENOENT") return forget(name);
      // Out of descriptors for a moment (another part of the process): the next scan tries again.
      if (code === "EMFILE" || code === "ENFILE") {
        outOfDescriptors = true;
        report("", {
          key: code,
          line: `${folder}: too many open files (${code}); some leads wait for the next scan`,
        });
        return;
      }
      forget(name);
      const fix =
        code === "EACCES" || code === "EPERM"
          ? "give the server's user read access, or move it out"
          : code === "ELOOP"
            ? "it is a symbolic link: move it out"
            : "move it out";
      report(name, {
        key: `error:${code}`,
        line: `${path} cannot be read (${error instanceof Error ? error.message : String(error)}); skipped: ${fix} of ${folder}`,
      });
    }
  };

  const scanFolder = async () => {
    if (create && !view.made) {
      await mkdir(folder, { recursive: true });
      view.made = true;
    }
    let names: string[];
    let listed = true;
    try {
      names = await readdir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      if (view.made && !view.missingReported) {
        log(
          `lead store: ${folder} is missing (deleted while the server ran?); it is made again at the next write`,
        );
      }
      view.missingReported = true;
      names = [];
      listed = false;
    }
    const present = new Set(names);
    for (const name of cache.keys()) if (!present.has(name)) forget(name);
    for (const name of reported.keys()) if (name !== "" && !present.has(name)) reported.delete(name);
    const time = now().getTime();
    const entries = names.filter((name) => LEAD_FILE.test(name) || name.startsWith(TEMP_PREFIX)).sort();
    const gone = new Set(await readdir(erased).catch(() => [] as string[]));
    outOfDescriptors = false;
    await eachLimited(entries, READ_CONCURRENCY, (name) => inspect(name, time, gone));
    // Said once while it lasts, and again if it comes back after a scan without it.
    if (!outOfDescriptors) reported.delete("");
    // Two consistent files with one id (a lead edited by hand): the first one is the lead.
    const owners = new Map<string, string>();
    for (const [name, { lead }] of [...cache.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const first = owners.get(lead.id);
      if (first === undefined) {
        owners.set(lead.id, name);
        continue;
      }
      cache.delete(name);
      report(name, {
        key: "duplicate",
        line: `${join(folder, name)} holds lead ${lead.id}, already read from ${first}; skipped and never delivered: move it out of ${folder}`,
      });
    }
    for (const [id, name] of owners) fileOf.set(id, name);
    // A file another process removed (retention, room for new leads) is forgotten, so the map
    // stays as large as the folder; a lead whose outcome is still being written keeps its name.
    if (listed) {
      for (const [id, name] of fileOf) if (!present.has(name) && !saving.has(id)) fileOf.delete(id);
    }
    view.scanned = true;
    return sorted();
  };

  let scanning: Promise<Lead[]> | undefined;
  return () => {
    scanning ??= scanFolder().finally(() => {
      scanning = undefined;
    });
    return scanning;
  };
}

const kindOf = (info: Stats) =>
  info.isDirectory()
    ? "a directory"
    : info.isSymbolicLink()
      ? "a symbolic link"
      : info.isFIFO()
        ? "a FIFO"
        : info.isSocket()
          ? "a socket"
          : info.isCharacterDevice() || info.isBlockDevice()
            ? "a device"
            : "not a regular file";

/** Runs `task` over `items`, at most `limit` at a time. */
async function eachLimited(items: string[], limit: number, task: (item: string) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++] as string);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
