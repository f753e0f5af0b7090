import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEFAULT_SITE_TIME_ZONE, dayIn } from "../../scripts/lib/content/publish-date";

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Workflow {
  on: { schedule?: { cron: string }[]; workflow_dispatch?: unknown; push?: unknown };
  jobs: Record<string, { env?: Record<string, string>; steps: Step[] }>;
}

const workflow = (name: string) => parse(readFileSync(`.github/workflows/${name}`, "utf8")) as Workflow;
const daily = workflow("publish-due.yml");
const onMerge = workflow("ci.yml");
const dailyJob = daily.jobs.image;
const mergeJob = onMerge.jobs.image;
const buildStep = (steps: Step[]) => steps.find((step) => step.uses?.startsWith("docker/build-push-action"));
/** A GitHub Actions expression as a workflow writes it: `${{ inner }}`. */
const gh = (inner: string) => `\${{ ${inner} }}`;
const lines = (text = "") =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

describe("the daily publishing workflow (.github/workflows/publish-due.yml)", () => {
  it("runs once a day, just after midnight in the site's default time zone, and by hand", () => {
    const crons = daily.on.schedule?.map(({ cron }) => cron) ?? [];
    expect(crons).toHaveLength(1);
    const [minute, hour, ...everyDay] = (crons[0] ?? "").split(" ");
    expect(everyDay).toEqual(["*", "*", "*"]);
    // GitHub's cron is in UTC: the run's time on the site's clock.
    const run = new Date(Date.UTC(2026, 11, 6, Number(hour), Number(minute)));
    const siteClock = new Intl.DateTimeFormat("en-GB", {
      timeZone: DEFAULT_SITE_TIME_ZONE,
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(run);
    expect(siteClock >= "00:00" && siteClock < "01:00").toBe(true);
    expect(daily.on).toHaveProperty("workflow_dispatch");
  });

  it("builds for today in the same time zone as the build's own default", () => {
    for (const job of [dailyJob, mergeJob]) {
      expect(job?.env?.SITE_TIME_ZONE).toBe(gh(`vars.SITE_TIME_ZONE || '${DEFAULT_SITE_TIME_ZONE}'`));
    }
  });

  it("builds only when its due check found an entry, and the check is the repository's script", () => {
    const due = dailyJob?.steps.find((step) => step.id === "due");
    const script = /vite-node (scripts\/\S+\.ts)/.exec(due?.run ?? "")?.[1] ?? "";
    expect(script).toBe("scripts/content-due.ts");
    const afterDue = dailyJob?.steps.slice((dailyJob?.steps.indexOf(due as Step) ?? 0) + 1) ?? [];
    expect(afterDue.length).toBeGreaterThan(0);
    for (const step of afterDue) expect(step.if).toBe("steps.due.outputs.build == 'true'");
  });

  it("tags its image with the day, never with a commit alone, and moves latest only to main's tip", () => {
    const tags = lines(buildStep(dailyJob?.steps ?? [])?.with?.tags);
    expect(tags).toEqual([
      `${gh("env.IMAGE")}:${gh("steps.day.outputs.commit")}-${gh("steps.day.outputs.today")}`,
    ]);
    const commitTags = lines(buildStep(mergeJob?.steps ?? [])?.with?.tags).filter(
      (tag) => !tag.endsWith(":latest"),
    );
    expect(commitTags).toEqual([`ghcr.io/${gh("github.repository")}:${gh("github.sha")}`]);
    expect(tags).not.toContain(commitTags[0]);
    const retag = dailyJob?.steps.find((step) => step.run?.includes("imagetools create"));
    expect(retag?.run).toMatch(/if \[ "\$\(git rev-parse FETCH_HEAD\)" = "\$COMMIT" \]/);
    expect(retag?.run).toContain('--tag "$IMAGE:latest" "$IMAGE:$COMMIT-$TODAY"');
  });

  it("builds main's tip as it is when the run starts", () => {
    const checkout = dailyJob?.steps.find((step) => step.uses?.startsWith("actions/checkout"));
    expect(checkout?.with?.ref).toBe(gh("github.ref"));
  });
});

describe("the image's build day", () => {
  it("is passed to the Docker build by both workflows, from their day step", () => {
    for (const job of [dailyJob, mergeJob]) {
      const args = lines(buildStep(job?.steps ?? [])?.with?.["build-args"]);
      expect(args).toContain(`PUBLISH_DATE=${gh("steps.day.outputs.today")}`);
      expect(args).toContain(`SITE_TIME_ZONE=${gh("env.SITE_TIME_ZONE")}`);
      expect(job?.steps.find((step) => step.id === "day")?.run).toContain('TZ="$SITE_TIME_ZONE" date +%F');
    }
  });

  it("reaches `npm run build` in the Dockerfile's build stage, so a new day misses the layer cache", () => {
    const dockerfile = readFileSync("Dockerfile", "utf8");
    const buildStage = dockerfile.slice(dockerfile.indexOf(" AS build"), dockerfile.indexOf(" AS runtime"));
    const instructions = lines(buildStage).filter((line) => !line.startsWith("#"));
    const at = (prefix: string) => instructions.findIndex((line) => line.startsWith(prefix));
    expect(at("COPY . .")).toBeGreaterThanOrEqual(0);
    for (const arg of ["ARG PUBLISH_DATE", "ARG SITE_TIME_ZONE"]) {
      expect(at(arg)).toBeGreaterThan(at("COPY . ."));
      expect(at(arg)).toBeLessThan(at("RUN npm run build"));
    }
  });

  it("is the day the workflows' `date` gives in the site's time zone, as the build's own rule gives it", () => {
    // Either side of midnight in Asia/Kolkata (18:30 UTC).
    for (const instant of ["2026-12-06T18:29:59Z", "2026-12-06T18:30:00Z"]) {
      const seconds = String(Date.parse(instant) / 1000);
      const shell = execFileSync("date", ["-d", `@${seconds}`, "+%F"], {
        env: { ...process.env, TZ: DEFAULT_SITE_TIME_ZONE },
        encoding: "utf8",
      }).trim();
      expect(shell).toBe(dayIn(DEFAULT_SITE_TIME_ZONE, new Date(instant)));
    }
  });
});
