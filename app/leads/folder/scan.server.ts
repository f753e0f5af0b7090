/** The folder store's scan: brings its view up to date with what the folder holds. */
import { readdir } from "node:fs/promises";
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
  const { folder, erased, now } = view;

  const scanFolder = async () => {
    await view.makeFolder();
    let names: string[];
    let listed = true;
    try {
      names = await readdir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      view.reportMissing();
      names = [];
      listed = false;
    }
    const present = new Set(names);
    view.forgetAbsent(present);
    const time = now().getTime();
    const entries = names.filter((name) => LEAD_FILE_NAME.test(name) || name.startsWith(TEMP_PREFIX)).sort();
    const gone = new Set(await readdir(erased).catch(() => [] as string[]));
    let outOfDescriptors = false;
    await eachLimited(entries, READ_CONCURRENCY, async (name) => {
      if (await inspectEntry(view, name, time, gone)) outOfDescriptors = true;
    });
    // Said once while it lasts, and again if it comes back after a scan without it.
    if (!outOfDescriptors) view.clearReport("");
    view.finishScan(present, listed);
    return view.sorted();
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
