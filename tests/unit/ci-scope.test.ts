import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { scopeOf } from "../../scripts/lib/ci-scope.js";

describe("what CI runs for a pull request's changed files", () => {
  it("runs the content check when every file is under content/", () => {
    expect(
      scopeOf(["content/insights/new-article.md", "content/images/photo.jpg", "content/contact.yml"]),
    ).toEqual({
      scope: "content",
      reason: "3 changed files, all under content/",
    });
    expect(scopeOf(["content/case-studies/pawpal.md"]).scope).toBe("content");
  });

  it("runs the whole suite when any file is outside content/, and names it", () => {
    expect(scopeOf(["content/contact.yml", "app/content/hero.ts"])).toEqual({
      scope: "full",
      reason: "app/content/hero.ts is outside content/",
    });
    expect(scopeOf([".github/workflows/ci.yml", "content/contact.yml"]).scope).toBe("full");
  });

  it("counts a file moved into content/ as a change outside it too (git lists both of its paths)", () => {
    expect(scopeOf(["app/content/hero.ts", "content/hero.ts"]).scope).toBe("full");
  });

  it("does not take a name that only begins like content/ for it", () => {
    for (const path of [
      "contents/x.md",
      "content.md",
      "content",
      "app/content/x.ts",
      "./content/x.md",
      "Content/x.md",
    ]) {
      expect(scopeOf([path]).scope, path).toBe("full");
    }
  });

  it("runs the whole suite when no changed file is known", () => {
    expect(scopeOf([])).toEqual({ scope: "full", reason: "no changed file found" });
    expect(scopeOf([""]).scope).toBe("full");
  });
});

describe("the pull request workflow", () => {
  const workflow = parse(readFileSync(".github/workflows/ci.yml", "utf8")) as {
    on: Record<string, unknown>;
    jobs: Record<
      string,
      { if?: string; steps: { id?: string; if?: string; run?: string; with?: Record<string, unknown> }[] }
    >;
  };
  const pullRequestJobs = Object.values(workflow.jobs).filter((job) => job.if?.includes("pull_request"));

  it("checks out the merge commit with its parents, then runs the scope's decision", () => {
    expect(pullRequestJobs).toHaveLength(1);
    const steps = pullRequestJobs[0]?.steps ?? [];
    expect(steps[0]?.with?.["fetch-depth"]).toBe(2);
    const scope = steps.find((step) => step.id === "scope");
    expect(scope?.run).toBe('node scripts/ci-scope.js >> "$GITHUB_OUTPUT"');
  });

  it("runs npm run check:content when the scope is content, and .ci/run otherwise", () => {
    const steps = pullRequestJobs[0]?.steps ?? [];
    const checkContent = steps.filter((step) => step.run?.includes("npm run check:content"));
    const suite = steps.filter((step) => step.run?.includes(".ci/run"));
    expect(checkContent.map((step) => step.if)).toEqual(["steps.scope.outputs.scope == 'content'"]);
    expect(suite.map((step) => step.if)).toEqual(["steps.scope.outputs.scope != 'content'"]);
  });
});
