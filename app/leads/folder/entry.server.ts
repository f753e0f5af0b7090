/**
 * The folder store's reading of one directory entry: a lead, a torn temporary file, or a problem to
 * report.
 */
import { constants, type Stats } from "node:fs";
import { lstat, open, unlink } from "node:fs/promises";
import { join } from "node:path";
import { type FolderView, fileVersion, type Problem } from "~/leads/folder/view.server";
import { TEMP_PREFIX } from "~/leads/folder/writes.server";
import { type Lead, leadFileName, leadIdOfFileName, logLeadState, parseLead } from "~/leads/lead";

/** A temporary file this old was left by a crash in the middle of a write, never by a write in progress. */
const TORN_AFTER_MS = 60_000;
/** A lead file is a few KB; anything this large is not one, and is not read into memory. */
const MAX_FILE_BYTES = 256 * 1024;

/** Never blocks (a FIFO, a device), never follows a symbolic link. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * One entry of the folder, on its own: whatever it is, it fails alone. Resolves true when the
 * process ran out of file descriptors (the entry waits for the next scan).
 */
export async function inspectEntry(
  view: FolderView,
  name: string,
  time: number,
  gone: Set<string>,
): Promise<boolean> {
  const { folder, create, log, report, forget } = view;
  const path = join(folder, name);
  try {
    // An erase stopped between its record and the unlink: the server finishes it.
    if (gone.has(leadIdOfFileName(name) ?? "")) {
      forget(name);
      if (create) await unlink(path);
      return false;
    }
    const info = await lstat(path);
    if (name.startsWith(TEMP_PREFIX)) {
      if (!info.isFile()) {
        report(name, {
          key: "kind",
          line: `${path} is ${kindOf(info)}, not a write of the store; move it out of ${folder}`,
        });
        return false;
      }
      if (time - info.mtimeMs < TORN_AFTER_MS) return false;
      await unlink(path);
      log(`lead store: removed ${path}, a write torn by a crash (no lead was answered from it)`);
      return false;
    }
    if (!info.isFile()) {
      forget(name);
      report(name, {
        key: "kind",
        line: `${path} is ${kindOf(info)}, not a lead file; skipped: move it out of ${folder}`,
      });
      return false;
    }
    // Read again whenever the file changed, whatever the lead's state: another process (the
    // operator's command) may have written it.
    if (view.known(name)?.version === fileVersion(info)) return false;
    const problem = await readLead(view, name);
    if (problem) {
      forget(name);
      report(name, problem);
    } else view.clearReport(name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Removed between readdir and read (retention in another process): nothing to do.
    if (code === "ENOENT") {
      forget(name);
      return false;
    }
    // Out of descriptors for a moment (another part of the process): the next scan tries again.
    if (code === "EMFILE" || code === "ENFILE") {
      report("", {
        key: code,
        line: `${folder}: too many open files (${code}); some leads wait for the next scan`,
      });
      return true;
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
  return false;
}

/** Reads one lead file into the view: regular files only, opened without blocking or following a link. */
async function readLead(view: FolderView, name: string): Promise<Problem | null> {
  const read = await readLeadFile(view.folder, name);
  if ("key" in read) return read;
  // An operator released it from the quarantine: the server's log says so too.
  if (view.known(name)?.lead.state === "spam" && read.lead.state !== "spam") logLeadState(read.lead);
  view.remember(name, read.lead, read.version);
  return null;
}

/**
 * The lead file `name` of `folder`, or the problem that makes it none: not a regular file, too
 * large, not a complete record, or named for another lead. Opened without blocking or following
 * a link; throws what opening it throws (ENOENT: removed meanwhile).
 */
export async function readLeadFile(
  folder: string,
  name: string,
): Promise<{ lead: Lead; version: string } | Problem> {
  const path = join(folder, name);
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
    return { lead, version: fileVersion(info) };
  } finally {
    await handle.close();
  }
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
