/**
 * A mount namespace of a test's own, where it may mount a tmpfs: root's own privileges as root,
 * a user namespace mapping the tester to root otherwise (scripts/lib/test-system.ts), so the
 * same code runs both ways. Its mounts vanish with it.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { enterOwnRoot, ownRoot } from "../../scripts/lib/test-system";

export interface MountNamespace {
  /** Runs `program` inside it (`mount`, `umount`); throws with what it printed if it fails. */
  run(program: string, args: string[]): void;
  /** `command` run inside it: a server under test that sees its mounts. */
  command(command: string[]): string[];
  /** `path` as it is inside it, for this process to read and write (`/proc/<pid>/root/…`). */
  path(path: string): string;
  /** Ends it, and its mounts with it, once the processes started inside have stopped. */
  close(): Promise<void>;
}

const uid = process.getuid?.() ?? 0;

/** Resolves once the namespace is made: its holder prints `ready`, then waits for its stdin to end. */
export async function startMountNamespace(): Promise<MountNamespace> {
  // The holder lives as long as its stdin is open: it ends with this process, whatever happens.
  const holder: ChildProcess = spawn(
    "unshare",
    [...ownRoot(uid), "--mount", "sh", "-c", "echo ready; exec cat"],
    {
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let printed = "";
  holder.stderr?.on("data", (chunk) => {
    printed += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    holder.stdout?.once("data", () => resolve());
    holder.once("error", reject);
    holder.once("exit", (code) =>
      reject(new Error(`unshare ${ownRoot(uid).join(" ")} --mount exited (${code}): ${printed}`)),
    );
  });
  const pid = holder.pid;
  if (pid === undefined) throw new Error("unshare did not start");
  const enter = ["nsenter", `--target=${pid}`, ...enterOwnRoot(uid)];
  return {
    run(program, args) {
      const [nsenter, ...options] = enter as [string, ...string[]];
      execFileSync(nsenter, [...options, program, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    },
    // nsenter would start it in `/`: in this process's folder instead, as startServer's own.
    command: (command) => [...enter, `--wd=${process.cwd()}`, ...command],
    path: (path) => `/proc/${pid}/root${path}`,
    async close() {
      if (holder.exitCode !== null || holder.signalCode !== null) return;
      const exited = once(holder, "exit");
      holder.stdin?.end();
      await exited;
    },
  };
}
