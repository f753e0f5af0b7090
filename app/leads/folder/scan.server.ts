/** The folder store's scan: brings its view up to date with what the folder holds. */
import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { inspectEntry } from "~/leads/folder/entry.server";
import type { FolderView } from "~/leads/folder/view.server";
import { TEMP_PREFIX } from "~/leads/folder/writes.server";
import type { Lead } from "~/leads/lead";
import { LEAD_FILE_NAME } from "~/leads/lead";

/** Files read at once: 10 000 leads scan under a 1 024 file-descriptor limit. */
const READ_CONCURRENCY = 32;

/**
 * The folder store's scan: brings the view up to date with the folder (leads written by
 * another process, by the operator's CLI, or removed), and returns every lead, oldest first.
 * Each entry succeeds or fails alone; only a folder that cannot be listed fails the scan.
 * Scans never overlap: a caller during one gets its result.
 */
export function createFolderScan(view: FolderView): () => Promise<Lead[]> {
  const { folder, create, erased, log, now, cache, fileOf, saving, reported, report, forget, sorted } = view;

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
    const entries = names.filter((name) => LEAD_FILE_NAME.test(name) || name.startsWith(TEMP_PREFIX)).sort();
    const gone = new Set(await readdir(erased).catch(() => [] as string[]));
    let outOfDescriptors = false;
    await eachLimited(entries, READ_CONCURRENCY, async (name) => {
      if (await inspectEntry(view, name, time, gone)) outOfDescriptors = true;
    });
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

/** Runs `task` over `items`, at most `limit` at a time. */
async function eachLimited(items: string[], limit: number, task: (item: string) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++] as string);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
