import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { FIXTURE_CONTENT_DIR } from "../support/fixture-content";
import { freePort } from "../support/server-process";

// The npm scripts an operator runs (README.md and docs/ name them), started the way an operator
// starts them, so a script that no longer starts (a missing module, a broken import alias) fails
// CI. The long-running ones answer `--help` once everything they import has loaded; the others
// run against an empty data folder; `npm start` serves until it is stopped. And every
// `npm run <script>` the documents name must be one of package.json's.

test.describe.configure({ timeout: 120_000 });

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function spawnNpm(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn("npm", args, {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: whatever npm started goes with it if the test fails.
    detached: true,
  });
}

async function runNpm(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawnNpm(args, env);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout, stderr };
}

let folder: string;
test.beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "npm-scripts-"));
});
test.afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** README.md and every Markdown file under docs/, by path. */
function documents(): Map<string, string> {
  const paths = [
    "README.md",
    ...readdirSync("docs", { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".md"))
      .map((name) => join("docs", name)),
  ];
  return new Map(paths.map((path) => [path, readFileSync(path, "utf8")]));
}

test("every npm script the README and docs/ name is in package.json", () => {
  const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
  const named: string[] = [];
  for (const [path, text] of documents()) {
    for (const [, script = ""] of text.matchAll(/npm run (?:-s )?([a-z][\w:-]*)/g)) {
      named.push(script);
      expect(Object.keys(scripts), `${path} names npm run ${script}`).toContain(script);
    }
  }
  expect(named).toEqual(expect.arrayContaining(["leads", "vitals", "bench", "load-test", "check"]));
});

for (const script of [
  "load-test",
  "bench",
  "bench:enquiry",
  "bench:replicas",
  "bench:export",
  "bench:report",
  "bench:content",
  "bench:publish",
  "bench:check-content",
  "check:content",
  "bench:withdraw",
  "content",
  "marketing-edits",
]) {
  test(`npm run ${script} -- --help loads the script and prints its usage`, async () => {
    const run = await runNpm(["run", "-s", script, "--", "--help"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`usage: npm run ${script}`);
  });
}

test("npm run report reports an empty folder: no campaign, no page, the last 28 days", async () => {
  const run = await runNpm(["run", "-s", "report", "--", "--json"], { ENQUIRY_STORE_DIR: folder });
  expect(run.code, run.stderr).toBe(0);
  const report = JSON.parse(run.stdout) as {
    since: string;
    until: string;
    campaigns: unknown[];
    pages: unknown[];
  };
  expect(report).toMatchObject({ campaigns: [], pages: [] });
  expect((Date.parse(report.until) - Date.parse(report.since)) / 86_400_000).toBe(27);
});

test("npm run report refuses a day that does not exist with the option's words", async () => {
  const run = await runNpm(["run", "-s", "report", "--", "--since", "2026-02-30"], {
    ENQUIRY_STORE_DIR: folder,
  });
  expect(run.code).toBe(2);
  expect(run.stderr.trim()).toBe("--since takes a day in REPORT_TIME_ZONE, YYYY-MM-DD (2026-01-31)");
});

test("npm run leads lists an empty store", async () => {
  const run = await runNpm(["run", "-s", "leads"], { ENQUIRY_STORE_DIR: folder });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain("No leads in");
});

test("npm run -s leads -- --csv, as the README has it written to a file, is the CSV alone: a BOM, then the header row", async () => {
  const run = await runNpm(["run", "-s", "leads", "--", "--csv"], { ENQUIRY_STORE_DIR: folder });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toMatch(
    /^\uFEFFid,received,state,emailjs,webhook,name,"e-mail",.*,click id,reference\r\n$/,
  );
});

test("npm run vitals summarises an empty folder", async () => {
  const run = await runNpm(["run", "-s", "vitals"], { ENQUIRY_STORE_DIR: folder });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toContain("No field metrics in");
});

test("npm start serves /healthz and stops on SIGTERM", async () => {
  const port = await freePort();
  const child = spawnNpm(["start"], {
    // The build the tests made, of their own content: npm start would build content/ otherwise.
    CONTENT_DIR: FIXTURE_CONTENT_DIR,
    PORT: String(port),
    HOST: "127.0.0.1",
    ENQUIRY_STORE_DIR: folder,
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = once(child, "exit");
  try {
    await expect
      .poll(
        async () => {
          try {
            return (await fetch(`http://127.0.0.1:${port}/healthz`)).status;
          } catch {
            return 0;
          }
        },
        { timeout: 60_000, message: output },
      )
      .toBe(200);
    child.kill("SIGTERM");
    await exited;
    await expect
      .poll(() =>
        fetch(`http://127.0.0.1:${port}/healthz`).then(
          () => "serving",
          () => "stopped",
        ),
      )
      .toBe("stopped");
  } finally {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // the group has exited already
    }
  }
});
