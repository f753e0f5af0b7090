// What a test started, stopped after it in reverse order, each step named: a step that does not
// finish within its limit fails the hook with its name and how long it was given, and the steps
// after it still run, instead of vitest's "Hook timed out in 10000ms", which names nothing.

/** How long one step may take: stopping a replica's delivery and closing its pool take well under a second unloaded. */
export const CLEANUP_STEP_MS = 15_000;

/** The hook's own limit to give vitest for `steps` steps: each may use its whole limit, and a margin. */
export const cleanupHookMs = (steps: number) => steps * CLEANUP_STEP_MS + 5_000;

export interface Cleanups {
  /** Runs `step` after the test, named `name` (what it waits for: "the delivery of replica 2 stops"). */
  add(name: string, step: () => unknown): void;
  /** How many steps wait. */
  readonly size: number;
  /** Runs every step added, last first; throws one error naming each step that failed or hung. */
  run(): Promise<void>;
}

export function createCleanups(stepMs = CLEANUP_STEP_MS): Cleanups {
  const steps: { name: string; step: () => unknown }[] = [];
  return {
    add: (name, step) => {
      steps.push({ name, step });
    },
    get size() {
      return steps.length;
    },
    async run() {
      const problems: string[] = [];
      for (const { name, step } of steps.splice(0).reverse()) {
        const problem = await finishes(name, step, stepMs);
        if (problem) problems.push(problem);
      }
      if (problems.length > 0) throw new Error(`cleanup: ${problems.join("; ")}`);
    },
  };
}

/** Null when `step` settles within `ms`; otherwise what went wrong, naming the step. */
async function finishes(name: string, step: () => unknown, ms: number): Promise<string | null> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`"${name}" had not finished after ${ms / 1000} s`), ms);
  });
  try {
    return await Promise.race([
      Promise.resolve()
        .then(step)
        .then(
          () => null,
          (error: unknown) =>
            `"${name}" failed after ${Date.now() - started} ms: ${error instanceof Error ? error.message : String(error)}`,
        ),
      hung,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
