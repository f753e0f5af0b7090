/**
 * What the test suite needs of the machine beyond Node and npm: the system programs it runs, and
 * the mount and PID namespaces the lead-fault tests make (docs/development.md#what-a-test-run-needs).
 */

export interface SystemProgram {
  name: string;
  /** The Debian package that brings it. */
  from: string;
  /** What runs it: a test, or what a test reads of the machine. */
  for: string;
}

/** The programs every run calls, as root or not. */
export const TEST_PROGRAMS: readonly SystemProgram[] = [
  { name: "sh", from: "dash", for: "npm's scripts, bench:content" },
  { name: "git", from: "git", for: "the content worktree, /admin's local backend, bench:content" },
  { name: "openssl", from: "openssl", for: "the fake EmailJS's and the database's certificates" },
  { name: "tar", from: "tar", for: "the previous releases' builds, bench:content" },
  { name: "mkfifo", from: "coreutils", for: "a FIFO in the lead store" },
  { name: "sleep", from: "coreutils", for: "a live lock holder" },
  { name: "true", from: "coreutils", for: "a lock holder that is gone" },
  { name: "script", from: "bsdutils", for: "npm run leads -- --csv on a terminal" },
  { name: "prlimit", from: "util-linux", for: "10 000 leads under a 1 024 file-descriptor limit" },
  { name: "unshare", from: "util-linux", for: "the lead-fault tests' namespaces" },
  { name: "nsenter", from: "util-linux", for: "the lead-fault tests' mounts" },
  { name: "mount", from: "mount", for: "the lead-fault tests' tmpfs" },
];

/** As root only: PostgreSQL refuses to run as root, so the tests run it as a `postgres` user, created if missing. */
export const ROOT_PROGRAMS: readonly SystemProgram[] = [
  { name: "id", from: "coreutils", for: "the postgres user's ids" },
  { name: "useradd", from: "passwd", for: "the postgres user" },
];

/** The tests that make namespaces, and what for. */
export const NAMESPACE_TESTS =
  "tests/browser/lead-faults.spec.ts (a full disk, a read-only disk, twin PID 1)";

/**
 * `unshare`'s options that give a process the privileges of root in namespaces of its own: none
 * for root, a user namespace mapping it to root for anyone else.
 */
export function ownRoot(uid: number): string[] {
  return uid === 0 ? [] : ["--user", "--map-root-user"];
}

/** `nsenter`'s options that enter the namespaces `unshare` made with `ownRoot(uid)` and `--mount`. */
export function enterOwnRoot(uid: number): string[] {
  return uid === 0 ? ["--mount"] : ["--user", "--mount", "--preserve-credentials"];
}

/** The `unshare` commands the lead-fault tests depend on, each tried once before a run: a tmpfs in a mount namespace, and a PID namespace. */
export function namespaceProbes(uid: number, mountPoint: string): string[][] {
  return [
    [...ownRoot(uid), "--mount", "mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint],
    [...ownRoot(uid), "--pid", "--fork", "--mount-proc", "true"],
  ];
}

export interface TestSystem {
  uid: number;
  /** Whether `name` is an executable on PATH. */
  onPath(name: string): boolean;
  /** Runs `unshare` with `args`: null once it succeeded, or what it printed. */
  unshare(args: string[]): string | null;
  /** A folder to mount the probe's tmpfs on (inside its own mount namespace, so no one sees it). */
  mountPoint: string;
}

/** What keeps the tests from running on `system`, one line each (none when all can run). */
export function testSystemFaults(system: TestSystem): string[] {
  const faults: string[] = [];
  const programs = [...TEST_PROGRAMS, ...(system.uid === 0 ? ROOT_PROGRAMS : [])];
  const missing = programs.filter((program) => !system.onPath(program.name));
  if (missing.length > 0) {
    const named = missing.map((program) => `${program.name} (${program.from}: ${program.for})`).join(", ");
    faults.push(`test system: not on PATH: ${named}; install them and run npm test again`);
  }
  if (missing.some((program) => program.name === "unshare" || program.name === "mount")) return faults;
  for (const probe of namespaceProbes(system.uid, system.mountPoint)) {
    const refused = system.unshare(probe);
    if (refused === null) continue;
    const why = `unshare ${probe.join(" ")}: ${refused.trim().split("\n")[0] ?? ""}`;
    faults.push(
      system.uid === 0
        ? `test system: ${NAMESPACE_TESTS} needs a mount and a PID namespace, which root is refused here (${why}); run the tests where root may make them (a VM, or a privileged container)`
        : `test system: ${NAMESPACE_TESTS} needs a user namespace, which the kernel refuses here (${why}); run the tests as root (sudo npm test), or allow unprivileged user namespaces`,
    );
    break;
  }
  return faults;
}
