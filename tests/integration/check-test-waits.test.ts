import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { checkFolders, findFixedWaits } from "../../scripts/lib/test-waits";

const root = process.cwd();
const whats = (source: string) => findFixedWaits(source).map((wait) => wait.what);

describe("the fixed-wait rule (npm run check)", () => {
  it.each([
    ["a waitForTimeout call", "await page.waitForTimeout(500);", "waitForTimeout"],
    ["a sleep promise", "await new Promise((resolve) => setTimeout(resolve, 200));", "new Promise"],
    [
      "a sleep promise that resolves in a callback",
      "await new Promise((r) => setTimeout(() => r(1), 9));",
      "new Promise",
    ],
    ["a bare setTimeout", "setTimeout(() => socket.destroy(), 10_000);", "setTimeout"],
    ["setTimeout through globalThis", "globalThis.setTimeout(done, 1);", "setTimeout"],
    ["setTimeout under another name", "const later = setTimeout;\nlater(done, 1);", "setTimeout"],
    [
      "a sleep inside a function handed to the page",
      "await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));",
      "sleep helper",
    ],
    [
      "node:timers/promises",
      'import { setTimeout as sleep } from "node:timers/promises";',
      "node:timers/promises",
    ],
    ["timers/promises", 'import { setTimeout } from "timers/promises";', "timers/promises"],
    [
      "timers/promises imported late",
      'const { setTimeout: wait } = await import("node:timers/promises");',
      "timers",
    ],
    ["timers/promises required", 'const timers = require("timers/promises");', "timers/promises"],
    ["setTimeout from node:timers", 'import { setTimeout as later } from "node:timers";', "node:timers"],
    [
      "an arrow sleep helper",
      "export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));",
      "sleep helper sleep",
    ],
    [
      "a function sleep helper with a block",
      "function delay(ms: number) {\n  return new Promise((resolve) => {\n    setTimeout(resolve, ms);\n  });\n}",
      "sleep helper delay",
    ],
    [
      "a helper of any name whose body is a timer promise",
      "async function settle() {\n  await new Promise((resolve) => setTimeout(resolve, 50));\n}",
      "sleep helper settle",
    ],
    [
      "a helper named wait… that starts a timer among other things",
      "async function waitABit(log: () => void) {\n  log();\n  await new Promise((r) => setTimeout(r, 50));\n}",
      "sleep helper waitABit",
    ],
  ])("flags %s", (_, source, what) => {
    const found = whats(source);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(what);
  });

  it.each([
    ["a test's own timeout", "test.setTimeout(60_000);"],
    ["a socket's idle timeout", "socket.setTimeout(10_000, () => socket.destroy());"],
    ["vitest's fake timers", 'vi.useFakeTimers({ toFake: ["setTimeout"] });\nvi.advanceTimersByTime(1_000);'],
    ["the browser's clock", "await page.clock.install();\nawait page.clock.runFor(250);"],
    [
      "waits for a state",
      "await expect.poll(() => count()).toBe(1);\nawait vi.waitFor(() => expect(done).toBe(true));",
    ],
    ["a promise an event settles", 'await new Promise((resolve) => socket.on("close", resolve));'],
    [
      "a wait… helper that awaits a state",
      "async function waitForHydration(page: Page) {\n  await page.waitForFunction(() => ready);\n}",
    ],
    [
      "setTimeout in a comment or a string",
      '// await new Promise((r) => setTimeout(r, 100));\nconst hint = "waitForTimeout";',
    ],
    [
      "the page's own timers, wrapped in an init script to count them",
      "await page.addInitScript(() => {\n  const set = window.setTimeout;\n  window.setTimeout = ((h: TimerHandler, ms?: number) => set(h, ms)) as typeof window.setTimeout;\n});",
    ],
    ["a type of setTimeout", "let timer: ReturnType<typeof setTimeout> | undefined;"],
    [
      "an object's own setTimeout key",
      "const fakes = { setTimeout: 1 };\nconst { setTimeout: timer } = fakes;",
    ],
  ])("passes %s", (_, source) => {
    expect(whats(source)).toEqual([]);
  });

  it("names the line and column of each", () => {
    const source =
      'import { test } from "@playwright/test";\n\ntest("x", async ({ page }) => {\n  await page.waitForTimeout(500);\n});\n';
    expect(findFixedWaits(source)).toEqual([
      { line: 4, column: 9, what: expect.stringContaining("waitForTimeout") },
    ]);
  });

  it("lets a file of the allow-list start timers, and nothing more", () => {
    const timer = "await new Promise((resolve) => setTimeout(resolve, 100));";
    const whole = { reason: "a fake server that answers late on purpose" };
    const lateAnswer = `server.on("request", async (request, reply) => {\n  ${timer}\n  reply.end();\n});`;
    expect(findFixedWaits(lateAnswer, "fake.ts", whole)).toEqual([]);
    const helper = findFixedWaits(
      "export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));",
      "fake.ts",
      whole,
    );
    expect(helper.map((wait) => wait.what)).toEqual([expect.stringContaining("sleep helper sleep")]);
    expect(findFixedWaits("await page.waitForTimeout(1);", "fake.ts", whole)).toHaveLength(1);

    const some = { reason: "a paced fake visitor", functions: ["visit"] };
    const source = [
      "function visit() {",
      "  return (async () => {",
      "    for (;;) {",
      "      await fetch(url);",
      `      ${timer}`,
      "    }",
      "  })();",
      "}",
      "async function check() {",
      "  await fetch(url);",
      `  ${timer}`,
      "}",
    ].join("\n");
    expect(findFixedWaits(source, "fake.ts", some)).toEqual([
      { line: 11, column: 9, what: expect.stringContaining("new Promise") },
    ]);
  });

  describe("over a folder", () => {
    let folder = "";
    afterEach(() => rmSync(folder, { recursive: true, force: true }));

    it("names each import of another file's sleep helper", () => {
      folder = mkdtempSync(join(tmpdir(), "test-waits-"));
      writeFileSync(
        join(folder, "helpers.ts"),
        "export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));\n",
      );
      writeFileSync(
        join(folder, "uses.spec.ts"),
        'import { sleep } from "./helpers";\n\nawait sleep(100);\n',
      );
      expect(checkFolders([folder], root)).toEqual([
        `${join(folder, "helpers.ts")}:1:14 sleep helper sleep: a function that waits a fixed time`,
        `${join(folder, "uses.spec.ts")}:1:10 imports sleep helper sleep from ./helpers`,
      ]);
    });

    it("the script exits 1 on a sample that breaks the rule, naming its line, and 0 on one that keeps it", async () => {
      folder = mkdtempSync(join(tmpdir(), "test-waits-"));
      const script = join(root, "node_modules", ".bin", "vite-node");
      const run = (args: string[]) =>
        promisify(execFile)(script, ["scripts/check-test-waits.ts", ...args], { cwd: root }).then(
          ({ stderr }) => ({ code: 0, stderr }),
          (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
        );
      writeFileSync(join(folder, "good.spec.ts"), "await expect.poll(() => sent()).toBe(1);\n");
      expect(await run([folder])).toEqual({ code: 0, stderr: "" });

      writeFileSync(
        join(folder, "bad.spec.ts"),
        'import { test } from "@playwright/test";\n\nawait page.waitForTimeout(500);\n',
      );
      const failed = await run([folder]);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain(`${join(folder, "bad.spec.ts")}:3:7 waitForTimeout: a fixed wait`);
      expect(failed.stderr).not.toContain("good.spec.ts");
    }, 60_000);
  });
});
