/** The folder store's writes: atomic file replacement, with the folder fsync'd once per batch. */
import { randomUUID } from "node:crypto";
import { mkdir, open, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { WriteOutcome } from "~/leads/contract.server";
import { type FolderView, fileVersion } from "~/leads/folder/view.server";
import { type Lead, leadFileText } from "~/leads/lead";

/** The prefix of the store's temporary files (a write under way, or torn by a crash). */
export const TEMP_PREFIX = ".tmp-";

/**
 * The folder store's writes: every write goes to a temporary file that is fsync'd, renamed over
 * the lead's file, and the folder fsync'd (shared by the writes that land together), so after
 * a crash each file is either its old or its new version. Each write and probe is recorded
 * (`lastWrite`) and told to `onWrite`: null when it worked, the error when it did not.
 */
export function createFolderWrites(view: FolderView, onWrite: (error: unknown) => void) {
  const { folder, create, now, wasErased } = view;
  let last: WriteOutcome | null = null;

  const record = (error: unknown) => {
    last = error
      ? { ok: false, at: now().getTime(), error: error instanceof Error ? error.message : String(error) }
      : { ok: true, at: now().getTime() };
    onWrite(error ?? null);
  };

  /** Opens a new file in the folder, making the folder (again) when it is missing. */
  const openNew = async (path: string) => {
    await view.makeFolder();
    try {
      return await open(path, "wx", 0o600);
    } catch (error) {
      if (!create || (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await view.remakeFolder();
      return await open(path, "wx", 0o600);
    }
  };

  // One folder fsync covers every rename made before it starts: concurrent writes share one.
  let syncing: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const syncFolder = (): Promise<void> => {
    if (queued) return queued;
    const start = () => {
      const current = fsyncFolder(folder).finally(() => {
        if (syncing === current) syncing = undefined;
      });
      syncing = current;
      return current;
    };
    if (!syncing) return start();
    const next = syncing
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return start();
      });
    queued = next;
    return next;
  };

  /**
   * An update checks for an erasure both before and after its rename. `erase` records the id
   * before it unlinks, so either this check sees the record and undoes the rename, or the
   * rename came before the unlink, which then removes it: the file never outlives an erase.
   */
  const writeFile = async (name: string, lead: Lead, update: boolean) => {
    const temporary = join(folder, `${TEMP_PREFIX}${randomUUID()}`);
    const handle = await openNew(temporary);
    let version: string;
    try {
      await handle.writeFile(leadFileText(lead), "utf8");
      await handle.datasync();
      // Renamed, the file keeps its inode and mtime: the version a scan then finds.
      version = fileVersion(await handle.stat());
    } catch (error) {
      await handle.close().catch(() => undefined);
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    await handle.close();
    if (update && (await wasErased(lead))) {
      await unlink(temporary).catch(() => undefined);
      return false;
    }
    try {
      await rename(temporary, join(folder, name));
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    if (update && (await wasErased(lead))) {
      await unlink(join(folder, name)).catch(() => undefined);
      await syncFolder();
      return false;
    }
    await syncFolder();
    view.rememberWrite(name, lead, version);
    return true;
  };

  let probing: Promise<WriteOutcome> | undefined;
  const probeOnce = async (): Promise<WriteOutcome> => {
    const path = join(folder, `${TEMP_PREFIX}probe-${randomUUID()}`);
    try {
      const handle = await openNew(path);
      try {
        await handle.writeFile("probe\n");
        await handle.datasync();
      } finally {
        await handle.close();
        await unlink(path).catch(() => undefined);
      }
      record(null);
    } catch (error) {
      record(error);
    }
    return last as WriteOutcome;
  };

  return {
    syncFolder,
    /** Records a write that failed before it reached the file (its lock could not be made). */
    record,
    /** Writes `lead` to its file `name`; an update (`update`) of an erased lead writes nothing: false. */
    async write(name: string, lead: Lead, update = false) {
      let written: boolean;
      try {
        written = await writeFile(name, lead, update);
      } catch (error) {
        record(error);
        throw error;
      }
      record(null);
      return written;
    },
    lastWrite: () => last,
    /** Writes and removes a small file, so `lastWrite` tells whether the folder takes writes now. */
    probe() {
      probing ??= probeOnce().finally(() => {
        probing = undefined;
      });
      return probing;
    },
  };
}

export async function fsyncFolder(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a small file of the data folder whole or not at all: a temporary file beside it, fsync'd,
 * renamed over `name`, then the folder fsync'd (the folder is made when missing).
 */
export async function writeFileWhole(folder: string, name: string, text: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  const temporary = join(folder, `${TEMP_PREFIX}${randomUUID()}`);
  try {
    const handle = await open(temporary, "wx", 0o600);
    try {
      await handle.writeFile(text, "utf8");
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temporary, join(folder, name));
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await fsyncFolder(folder);
}
