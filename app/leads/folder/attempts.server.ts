/** The folder store's record of sends begun: an empty file per lead and destination, written before the first send there. */
import { access, mkdir, readdir, stat, unlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { DESTINATIONS, type DestinationName } from "~/destinations/lookup.server";
import { fsyncFolder } from "~/leads/folder/writes.server";

/**
 * Beside the leads: `<lead id>.<destination>`, an empty file (a UUID and a destination's
 * name, nothing about the person), made and fsync'd before the first send of that lead there. An
 * erasure reads it: the destination may hold the lead even while that send still waits for its
 * answer, when its outcome was never written (a crash, a full disk), or when it timed out.
 * Empty, so it can be made on a disk too full for a lead's file (it takes an inode, no block).
 * Why: docs/decisions/031-erasure-tells-every-destination.md.
 */
export function attemptedFolder(leads: string): string {
  return join(dirname(leads), "attempted");
}

const markerOf = (folder: string, id: string, destination: DestinationName) =>
  join(folder, `${id}.${destination}`);

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Makes lead `id`'s marker for `destination` durable, unless it is already there. */
export async function recordAttemptBegun(folder: string, id: string, destination: DestinationName) {
  const marker = markerOf(folder, id, destination);
  if (await exists(marker)) return;
  try {
    await mkdir(folder, { recursive: true });
    await writeFile(marker, "", { mode: 0o600, flag: "wx", flush: true });
    await fsyncFolder(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return;
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(
      `cannot record the start of a send in ${folder} (${cause}); leads never sent before wait until it is writable`,
    );
  }
}

/** The destinations lead `id` has a marker for, in the order of DESTINATIONS. */
export async function attemptsBegun(folder: string, id: string): Promise<DestinationName[]> {
  const found = await Promise.all(DESTINATIONS.map((name) => exists(markerOf(folder, id, name))));
  return DESTINATIONS.filter((_, index) => found[index]);
}

/** Removes lead `id`'s markers (it was erased). */
export async function forgetAttempts(folder: string, id: string) {
  for (const name of DESTINATIONS) await unlink(markerOf(folder, id, name)).catch(() => undefined);
}

/**
 * Removes the markers older than `cutoff` (ms) whose lead is no longer kept (`kept` says which
 * ids are): their leads went with retention or to make room.
 */
export async function pruneAttempts(folder: string, cutoff: number, kept: (id: string) => boolean) {
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const id = name.split(".")[0] ?? "";
    if (kept(id)) continue;
    const path = join(folder, name);
    const info = await stat(path).catch(() => null);
    if (info && info.mtimeMs < cutoff) await unlink(path).catch(() => undefined);
  }
}
