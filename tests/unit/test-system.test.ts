import { describe, expect, it } from "vitest";
import {
  ROOT_PROGRAMS,
  TEST_PROGRAMS,
  type TestSystem,
  testSystemFaults,
} from "../../scripts/lib/test-system";

/** A machine with every program and namespace, changed by `overrides`; records the `unshare` calls. */
function machine(overrides: Partial<TestSystem> = {}) {
  const calls: string[][] = [];
  const system: TestSystem = {
    uid: 1000,
    onPath: () => true,
    mountPoint: "/tmp/test-system-x",
    unshare: (args) => {
      calls.push(args);
      return null;
    },
    ...overrides,
  };
  return { system, calls };
}

describe("the test system check", () => {
  it("finds nothing missing on a machine with every program, where a user namespace can mount a tmpfs and make a PID namespace", () => {
    const { system, calls } = machine();
    expect(testSystemFaults(system)).toEqual([]);
    expect(calls).toEqual([
      [
        "--user",
        "--map-root-user",
        "--mount",
        "mount",
        "-t",
        "tmpfs",
        "-o",
        "size=64k",
        "tmpfs",
        "/tmp/test-system-x",
      ],
      ["--user", "--map-root-user", "--pid", "--fork", "--mount-proc", "true"],
    ]);
  });

  it("as root, makes the namespaces with root's own privileges, and needs useradd for PostgreSQL's user", () => {
    const { system, calls } = machine({ uid: 0, onPath: (name) => name !== "useradd" });
    expect(testSystemFaults(system)).toEqual([
      "test system: not on PATH: useradd (passwd: the postgres user); install them and run npm test again",
    ]);
    expect(calls.map((args) => args[0])).toEqual(["--mount", "--pid"]);
    expect(ROOT_PROGRAMS.map((program) => program.name)).toContain("useradd");
  });

  it("names every missing program in one line, with the package that brings it", () => {
    const { system } = machine({ onPath: (name) => !["openssl", "script"].includes(name) });
    const faults = testSystemFaults(system);
    expect(faults).toHaveLength(1);
    expect(faults[0]).toMatch(
      /^test system: not on PATH: openssl \(openssl: .+\), script \(bsdutils: .+\); install/,
    );
    expect(TEST_PROGRAMS.some((program) => program.name === "useradd")).toBe(false);
  });

  it("where the kernel refuses a user namespace, says in one line which tests need it and to run them as root", () => {
    const { system, calls } = machine({
      unshare: (args) => {
        calls.push(args);
        return "unshare: unshare failed: Operation not permitted\n";
      },
    });
    expect(testSystemFaults(system)).toEqual([
      "test system: tests/browser/lead-faults.spec.ts (a full disk, a read-only disk, twin PID 1) needs a user namespace, which the kernel refuses here (unshare --user --map-root-user --mount mount -t tmpfs -o size=64k tmpfs /tmp/test-system-x: unshare: unshare failed: Operation not permitted); run the tests as root (sudo npm test), or allow unprivileged user namespaces",
    ]);
    expect(calls).toHaveLength(1);
  });

  it("where a user namespace may not make a PID namespace, says so the same way", () => {
    const { system } = machine({ unshare: (args) => (args.includes("--pid") ? "mount proc: EPERM" : null) });
    const faults = testSystemFaults(system);
    expect(faults).toHaveLength(1);
    expect(faults[0]).toContain("--pid --fork --mount-proc true: mount proc: EPERM); run the tests as root");
  });

  it("as root refused a namespace, says where the tests can run instead", () => {
    const { system } = machine({ uid: 0, unshare: () => "unshare: Operation not permitted" });
    expect(testSystemFaults(system)[0]).toMatch(/which root is refused here .*a privileged container\)$/);
  });
});
