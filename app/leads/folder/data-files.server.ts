/**
 * Small files of the data folder that are appended to (the field metrics, the campaign counts'
 * day logs) or read whole: never through a link, never blocking on a FIFO; an append opens the
 * file each time, makes it when missing and ends a torn last line first.
 */
import { constants } from "node:fs";
import { type FileHandle, mkdir, open } from "node:fs/promises";
import { join } from "node:path";

/** Reading: never blocks (a FIFO), never follows a symbolic link. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** A file's text when `path` is a regular file; null when it is missing, a link, a folder or a FIFO. */
export async function readRegularFile(path: string): Promise<string | null> {
  const handle = await open(path, READ_FLAGS).catch((error: NodeJS.ErrnoException) => {
    if (["ENOENT", "ELOOP", "EISDIR", "ENXIO"].includes(error.code ?? "")) return null;
    throw error;
  });
  if (handle === null) return null;
  try {
    if (!(await handle.stat()).isFile()) return null;
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

/** Never blocks (a FIFO), never follows a symbolic link; read too, for the last byte. */
const APPEND_FLAGS =
  constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * `name` in `folder` open to append to, and its size: created owner-only when missing, the folder
 * too. A name that is no regular file (a link, a folder, a FIFO) is refused with an error naming it.
 */
export async function openForAppend(
  folder: string,
  name: string,
): Promise<{ handle: FileHandle; size: number }> {
  const path = join(folder, name);
  const handle = await open(path, APPEND_FLAGS, 0o600).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
    await mkdir(folder, { recursive: true, mode: 0o700 });
    return open(path, APPEND_FLAGS, 0o600);
  });
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error(`${path} is not a regular file: remove it`);
    return { handle, size: info.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Appends `text` (whole lines) at `size` and syncs the data: a file that does not end its last
 * line (a write torn by a crash) gets a line break first. Resolves where this append ends.
 */
export async function appendLines(handle: FileHandle, size: number, text: string): Promise<number> {
  let prefix = "";
  if (size > 0) {
    const { buffer } = await handle.read({ buffer: Buffer.alloc(1), position: size - 1 });
    if (buffer[0] !== 0x0a) prefix = "\n";
  }
  const lines = prefix + text;
  await handle.write(lines);
  await handle.datasync();
  return size + Buffer.byteLength(lines);
}
