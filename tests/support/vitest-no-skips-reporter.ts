import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/**
 * vitest's twin of no-skips-reporter.ts: fails the run when a test was skipped (or left as a
 * todo), naming each, so a green run means every test ran.
 */
export default class VitestNoSkipsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped: string[] = [];
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        if (test.result().state === "skipped")
          skipped.push(`${relative(process.cwd(), testModule.moduleId)} › ${test.fullName}`);
      }
    }
    if (skipped.length === 0) return;
    console.error(
      `\n${skipped.length} test(s) skipped, so the run fails (a test that cannot run must fail, saying why):`,
    );
    for (const line of skipped) console.error(`  ${line}`);
    process.exitCode = 1;
  }
}
