import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { appendLines, openForAppend, readRegularFile } from "~/leads/folder/data-files.server";

// The data folder is shared with operators and other processes: what is appended to or read whole
// is a regular file, never what a link points at, never a FIFO that would block the server.

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});
function folder(): string {
  const root = mkdtempSync(join(tmpdir(), "data-files-"));
  roots.push(root);
  return root;
}

async function append(dir: string, name: string, text: string): Promise<number> {
  const { handle, size } = await openForAppend(dir, name);
  try {
    return await appendLines(handle, size, text);
  } finally {
    await handle.close();
  }
}

describe("appending to a file of the data folder", () => {
  it("makes the folder and the file, owner-only, and says where its append ended", async () => {
    const dir = join(folder(), "campaigns", "deeper");
    expect(await append(dir, "day.log", "one\n")).toBe(4);
    expect(await append(dir, "day.log", "two\n")).toBe(8);
    expect(readFileSync(join(dir, "day.log"), "utf8")).toBe("one\ntwo\n");
    expect(execFileSync("stat", ["-c", "%a", join(dir, "day.log")], { encoding: "utf8" }).trim()).toBe("600");
  });

  it("ends a last line a crash left unfinished before its own lines", async () => {
    const dir = folder();
    writeFileSync(join(dir, "day.log"), 'one\n["torn');
    const end = await append(dir, "day.log", "two\n");
    expect(readFileSync(join(dir, "day.log"), "utf8")).toBe('one\n["torn\ntwo\n');
    expect(end).toBe(Buffer.byteLength('one\n["torn\ntwo\n'));
  });

  it("refuses a link, a folder and a FIFO in the file's place, and leaves what a link points at alone", async () => {
    const dir = folder();
    const target = join(dir, "elsewhere.txt");
    writeFileSync(target, "kept\n");
    symlinkSync(target, join(dir, "link.log"));
    mkdirSync(join(dir, "folder.log"));
    execFileSync("mkfifo", [join(dir, "fifo.log")]);
    await expect(append(dir, "link.log", "x\n")).rejects.toMatchObject({ code: "ELOOP" });
    await expect(append(dir, "folder.log", "x\n")).rejects.toMatchObject({ code: "EISDIR" });
    await expect(append(dir, "fifo.log", "x\n")).rejects.toThrow(
      /fifo\.log is not a regular file: remove it/,
    );
    expect(readFileSync(target, "utf8")).toBe("kept\n");
  });
});

describe("reading a file of the data folder whole", () => {
  it("reads a regular file, and nothing for a missing one, a link, a folder or a FIFO", async () => {
    const dir = folder();
    writeFileSync(join(dir, "day.json"), "[]");
    symlinkSync(join(dir, "day.json"), join(dir, "link.json"));
    mkdirSync(join(dir, "folder.json"));
    execFileSync("mkfifo", [join(dir, "fifo.json")]);
    expect(await readRegularFile(join(dir, "day.json"))).toBe("[]");
    for (const name of ["missing.json", "link.json", "folder.json", "fifo.json"])
      expect(await readRegularFile(join(dir, name)), name).toBeNull();
  });
});
