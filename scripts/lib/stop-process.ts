/** Stops a child process: SIGTERM, SIGKILL if it outlives that by 5 s; shared by `npm run content` and the tests. */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";

/** Stops a child process with SIGTERM (SIGKILL after 5 s) and waits for it to exit. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
