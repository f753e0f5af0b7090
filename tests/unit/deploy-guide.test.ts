import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseEnv } from "~/env.server";

/** The shell block of docs/deploying.md's "Deploying without a person", one command per entry. */
function guideCommands(): string[] {
  const guide = readFileSync("docs/deploying.md", "utf8");
  const section = guide.slice(guide.indexOf("## Deploying without a person"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"));
}

const commands = guideCommands();
const site = commands.find((line) => line.includes("--name nirmaan-site")) ?? "";
const watchtower = commands.find((line) => line.includes("--name watchtower")) ?? "";
const setting = (command: string, name: string) => new RegExp(`-e ${name}=(\\S+)`).exec(command)?.[1];

describe("docs/deploying.md's deploy without a person (Watchtower)", () => {
  it("runs the tag both workflows move, from the registry the merge's workflow pushes to", () => {
    const ci = parse(readFileSync(".github/workflows/ci.yml", "utf8")) as {
      jobs: { image: { steps: { with?: { tags?: string } }[] } };
    };
    const pushed = ci.jobs.image.steps.flatMap((step) => step.with?.tags?.split("\n") ?? []);
    expect(pushed).toContain(`ghcr.io/\${{ github.repository }}:latest`);
    expect(site.split(" ").at(-1)).toBe("ghcr.io/<owner>/<repo>:latest");
    expect(readFileSync(".github/workflows/publish-due.yml", "utf8")).toContain('--tag "$IMAGE:latest"');
  });

  it("lets Watchtower replace the marked site only, and keeps the leads on the site's volume", () => {
    expect(site).toContain("--label com.centurylinklabs.watchtower.enable=true");
    expect(setting(watchtower, "WATCHTOWER_LABEL_ENABLE")).toBe("true");
    expect(site).toMatch(/-v \S+:\/app\/data /);
  });

  it("gives the server longer than its shutdown deadline to drain, as the site's own stop timeout does", () => {
    const deadline = parseEnv({}).SHUTDOWN_DEADLINE;
    const timeout = Number(/^(\d+)s$/.exec(setting(watchtower, "WATCHTOWER_TIMEOUT") ?? "")?.[1]);
    expect(timeout).toBeGreaterThan(deadline);
    expect(site).toContain(`--stop-timeout ${timeout} `);
  });

  it("pins Watchtower's own image, which holds the Docker socket, to a version", () => {
    expect(watchtower).toContain("-v /var/run/docker.sock:/var/run/docker.sock");
    expect(watchtower.split(" ").at(-1)).toMatch(/^nickfedor\/watchtower:\d+\.\d+\.\d+$/);
  });
});
