import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Read by vitest and by vite-node, which runs `npm run bench`, `bench:enquiry` and `load-test`:
// both need the `~/` alias of app/ (Remix's classic compiler reads remix.config.js, not this).
export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/{unit,integration}/**/*.test.ts", "tests/unit/**/*.test.tsx"],
          // The app imports modules the content build writes, here from the tests' own content
          // (tests/fixtures/content), so no edit to content/ fails a test.
          globalSetup: ["tests/support/content-setup.ts"],
        },
      },
      {
        // The one test of the content that ships (`npm run test:specification`): it reads content/.
        extends: true,
        test: { name: "specification", include: ["tests/content/**/*.test.ts"] },
      },
    ],
    environment: "node",
    // Every wait ends when its state holds, so generous limits cost a passing test nothing and
    // keep a loaded machine (two cores, a load of 10) from failing a test that is merely slow:
    // a state is awaited 15 s, as in the browser tests, within a test's 30 s.
    testTimeout: 30_000,
    // Two files at a time, not vitest's default of one core fewer than the machine has: on two
    // cores that ran one file at a time, though the slow files mostly wait on PostgreSQL (132 s
    // for the suite; 69 s with two).
    maxWorkers: 2,
    // A skipped test fails the run, as in Playwright: every test runs or the run fails.
    reporters: ["default", "./tests/support/vitest-no-skips-reporter.ts"],
    expect: { poll: { timeout: 15_000 } },
  },
});
