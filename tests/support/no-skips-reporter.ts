import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/**
 * Fails the run when a test was skipped, naming each and its reason: a test that cannot run
 * here must fail saying why, so a green run means every test ran. (A test left out by `-g` or
 * a project's `grep` is not in the run at all, so it is no skip.)
 */
export default class NoSkipsReporter implements Reporter {
  private readonly skipped: string[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status !== "skipped") return;
    const reason = test.annotations.find((annotation) => annotation.type === "skip")?.description;
    this.skipped.push(`${test.titlePath().filter(Boolean).join(" › ")}: ${reason ?? "no reason given"}`);
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult["status"] } | undefined> {
    if (this.skipped.length === 0) return undefined;
    console.error(
      `\n${this.skipped.length} test(s) skipped, so the run fails (a test that cannot run must fail, saying why):`,
    );
    for (const line of this.skipped) console.error(`  ${line}`);
    return { status: result.status === "passed" ? "failed" : result.status };
  }

  printsToStdio(): boolean {
    return false;
  }
}
