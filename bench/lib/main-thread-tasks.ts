/**
 * The main-thread tasks of a page's cold load, from a Chromium trace read with Lighthouse's own
 * trace model (for `npm run bench`).
 */
import type { Browser, CDPSession } from "@playwright/test";
// Lighthouse's own trace model: the same main-thread tasks, nesting and URL attribution as
// its long-tasks audit and the DevTools performance panel.
import { MainThreadTasks } from "lighthouse/core/lib/tracehouse/main-thread-tasks.js";
import { TraceProcessor } from "lighthouse/core/lib/tracehouse/trace-processor.js";

/** Lighthouse's mobile device (Moto G Power): what the bench's Lighthouse runs emulate too. */
const mobile = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
} as const;

/** The trace categories Lighthouse records, less screenshots. */
const categories = [
  "-*",
  "disabled-by-default-lighthouse",
  "loading",
  "v8",
  "v8.execute",
  "blink.user_timing",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.timeline.frame",
];

/** What a long task spent its time on: Lighthouse's task groups, by self time. */
const groupLabels: Record<string, string> = {
  parseHTML: "parse HTML/CSS",
  styleLayout: "style & layout",
  paintCompositeRender: "paint",
  scriptParseCompile: "compile",
  scriptEvaluation: "script",
  garbageCollection: "GC",
  other: "other",
};

/** What started a task: its first child event Lighthouse names, in words. */
const triggers: Record<string, string> = {
  ParseHTML: "HTML parser",
  EvaluateScript: "evaluation of",
  "v8.evaluateModule": "module evaluation",
  "v8.compileModule": "module compile",
  FunctionCall: "callback",
  TimerFire: "timer",
  FireIdleCallback: "idle callback",
  FireAnimationFrame: "animation frame",
  RunMicrotasks: "microtasks",
  EventDispatch: "event",
  UpdateLayoutTree: "style recalculation",
  Layout: "layout",
  Paint: "paint",
  ParseAuthorStyleSheet: "stylesheet parse",
  MajorGC: "GC",
  MinorGC: "GC",
};

export interface MainThreadTask {
  /** Start, ms after the navigation started. */
  start: number;
  duration: number;
  /**
   * Time the main thread ran it, from the trace's thread clock: unlike `duration` it leaves
   * out the time the thread waited for a busy CPU (a shared machine) or the CPU throttle.
   */
  cpu: number;
  /** What started it and what it spent its time on, e.g. "module evaluation: script 90 %, GC 10 %". */
  what: string;
}

export interface ColdLoadProfile {
  url: string;
  cpuSlowdown: number;
  /** Every main-thread task from navigation to a quiet page, longest (`duration`) first. */
  tasks: MainThreadTask[];
}

interface TaskNode {
  event: {
    name: string;
    tdur?: number;
    args?: { data?: { url?: string; type?: string; functionName?: string; lineNumber?: number } };
  };
  children: TaskNode[];
  parent: TaskNode | undefined;
  startTime: number;
  duration: number;
  selfTime: number;
  attributableURLs: string[];
  group: { id: string };
}

/**
 * Loads `url` cold (a fresh context: no cache, no service worker) as Lighthouse's mobile device,
 * with the CPU slowed `cpuSlowdown` times (Emulation.setCPUThrottlingRate), and records a
 * Chromium trace until the page is hydrated and quiet. The tasks come from the trace, not
 * from timing this code: their durations are what the renderer's main thread did.
 */
export async function profileColdLoad(
  browser: Browser,
  url: string,
  { cpuSlowdown = 1 }: { cpuSlowdown?: number } = {},
): Promise<ColdLoadProfile> {
  const context = await browser.newContext({ ...mobile });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpuSlowdown });
    // A page of the same site first, which loads nothing the route needs: the route's
    // navigation then stays in this renderer, where the trace finds it, and is still cold.
    await page.goto(new URL("/healthz", url).href);
    await browser.startTracing(page, { categories, screenshots: false });
    await page.goto(url, { waitUntil: "load" });
    // The waits are plain expressions sent over CDP: Playwright's waitForFunction and evaluate
    // first install its own scripts in the page, a 100–400 ms task the trace would count as
    // the page's ("evaluation of inline script").
    await inPage(cdp, routerCreated, 20_000 * cpuSlowdown);
    await page.waitForLoadState("networkidle");
    // Two idle periods in a row: whatever the page schedules at idle (the field-metrics
    // reporter, the typed word) has started and run its first steps.
    await inPage(cdp, twoIdlePeriods, 20_000 * cpuSlowdown);
    const trace = JSON.parse((await browser.stopTracing()).toString("utf8"));
    return { url, cpuSlowdown, tasks: mainThreadTasks(trace) };
  } finally {
    await context.close();
  }
}

/**
 * Resolves once Remix's router exists (hydration has started), or at once on a page that sends
 * no bundle (no module script, live or inert: docs/decisions/038-pages-without-a-bundle.md).
 */
const routerCreated = `new Promise((resolve) => {
  const bundled = document.querySelector('script[type="module"], script[type="text/x-remix-hydration"]');
  const poll = () => (!bundled || "__remixRouter" in window ? resolve() : setTimeout(poll, 20));
  poll();
})`;

const twoIdlePeriods = `new Promise((resolve) => {
  const idle = (next) => ("requestIdleCallback" in window ? requestIdleCallback(() => next()) : setTimeout(next, 50));
  idle(() => idle(resolve));
})`;

/** Awaits a promise expression in the page, injecting nothing else into it; fails after `timeoutMs`. */
async function inPage(cdp: CDPSession, expression: string, timeoutMs: number): Promise<void> {
  const answer = await cdp.send("Runtime.evaluate", {
    expression: `Promise.race([${expression}, new Promise((_, reject) => setTimeout(() => reject(new Error("timed out after ${timeoutMs} ms")), ${timeoutMs}))])`,
    awaitPromise: true,
  });
  if (answer.exceptionDetails) {
    throw new Error(
      `waiting in the page for ${expression}: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text}`,
    );
  }
}

function mainThreadTasks(trace: { traceEvents: unknown[] }): MainThreadTask[] {
  const processed = TraceProcessor.processTrace(trace as never);
  const navigationStart = processed.timeOriginEvt.ts;
  const nodes = MainThreadTasks.getMainThreadTasks(
    processed.mainThreadEvents,
    processed.frames,
    processed.timestamps.traceEnd,
    navigationStart,
  ) as unknown as TaskNode[];
  return nodes
    .filter((task) => !task.parent && task.startTime >= 0)
    .map((task) => ({
      start: task.startTime,
      duration: task.duration,
      cpu: (task.event.tdur ?? task.duration * 1000) / 1000,
      what: whatItDid(task),
    }))
    .sort((a, b) => b.duration - a.duration);
}

/** "trigger file.js: group %, group %" for the groups that took at least 5 % of the task. */
function whatItDid(task: TaskNode): string {
  const byGroup = new Map<string, number>();
  const visit = (node: TaskNode) => {
    byGroup.set(node.group.id, (byGroup.get(node.group.id) ?? 0) + node.selfTime);
    for (const child of node.children) visit(child);
  };
  visit(task);
  const total = [...byGroup.values()].reduce((sum, ms) => sum + ms, 0) || 1;
  const spent = [...byGroup]
    .map(([group, ms]) => [group, Math.round((100 * ms) / total)] as const)
    .filter(([, share]) => share >= 5)
    .sort((a, b) => b[1] - a[1])
    .map(([group, share]) => `${groupLabels[group] ?? group} ${share} %`)
    .join(", ");
  const first = task.children.find((child) => triggers[child.event.name]) ?? task;
  const trigger = triggers[first.event.name] ?? first.event.name;
  const eventType = first.event.args?.data?.type;
  const url = first.event.args?.data?.url ?? task.attributableURLs.at(-1);
  const line = first.event.args?.data?.lineNumber;
  const source =
    first.event.name === "EvaluateScript" && !url
      ? `inline script${line ? ` at line ${line}` : ""}`
      : fileName(url);
  return `${trigger}${eventType ? ` (${eventType})` : ""}${source ? ` ${source}` : ""}: ${spent || "other"}`;
}

function fileName(url: string | undefined): string {
  if (!url) return "";
  try {
    const { pathname } = new URL(url);
    return pathname.split("/").at(-1) || pathname;
  } catch {
    return "";
  }
}
