/**
 * The rule `npm run check` holds tests/ to (scripts/check-test-waits.ts runs it): no fixed wait.
 * A test waits for a state (expect, expect.poll, vi.waitFor) or controls the clock (page.clock,
 * vi.useFakeTimers); a negative check watches a window through tests/support/quiet-window.ts.
 * It reads the syntax tree, not the text: a comment or a string that names setTimeout is no
 * fault, and an alias of it is one.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/** Where a file may start timers: everywhere in it, or inside the functions named. */
export interface TimerAllowance {
  reason: string;
  functions?: readonly string[];
}

/**
 * The files that may start a timer, each with why: the rest of tests/ may not. A file here may
 * still not call waitForTimeout or define a sleep helper (that would hand the clock to others).
 */
export const TIMERS_ALLOWED: Readonly<Record<string, TimerAllowance>> = {
  "tests/support/quiet-window.ts": {
    reason:
      "the negative-check helper: its window, taken from the constant it guards, is the one deliberate wait",
  },
  "tests/support/cleanups.ts": {
    reason:
      "the cleanup hook's limit per step: a step still running when it passes is named in the hook's error, never waited for",
  },
  "tests/support/fault-watch.ts": {
    functions: ["watchPages", "enquiryStream"],
    reason:
      "fake visitors that pace their requests on purpose: the traffic a fault test puts on the server, not a wait before an assertion",
  },
  "tests/support/server-process.ts": {
    functions: ["startServer", "databaseReady"],
    reason:
      "polls a child server until /healthz answers (within a deadline): the state is awaited, the timer only paces the polls",
  },
  "tests/support/fake-emailjs.ts": {
    functions: ["startFakeEmailJs"],
    reason: "the fake's own behaviour: an answer delayed as a test asks",
  },
};

export interface FixedWait {
  line: number;
  column: number;
  what: string;
}

const TIMER_PROMISES = new Set(["timers/promises", "node:timers/promises"]);
const TIMERS = new Set(["timers", "node:timers"]);
const GLOBAL_OBJECTS = new Set(["globalThis", "window", "global", "self"]);
const SLEEPY_NAME = /^(sleep|delay|pause|wait)/i;

/** Whether `node` (an identifier `setTimeout`) reads the timer function, not a name of something else. */
function readsGlobalSetTimeout(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent)) return false;
  if (ts.isPropertyAssignment(parent) && parent.name === node) return false;
  if ((ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent)) && parent.name === node)
    return false;
  if (ts.isPropertySignature(parent) || ts.isMethodSignature(parent)) return false;
  if (ts.isBindingElement(parent) && parent.propertyName === node) return false;
  return true;
}

/** `setTimeout`, `globalThis.setTimeout` (or window., global., self.): the timer itself. */
function isSetTimeoutReference(node: ts.Node): boolean {
  if (ts.isIdentifier(node)) return node.text === "setTimeout" && readsGlobalSetTimeout(node);
  return (
    ts.isPropertyAccessExpression(node) &&
    node.name.text === "setTimeout" &&
    ts.isIdentifier(node.expression) &&
    GLOBAL_OBJECTS.has(node.expression.text)
  );
}

/** Methods whose function argument runs in the page, where setTimeout is the page's own timer. */
const IN_PAGE = new Set(["addInitScript", "evaluate", "evaluateHandle", "evaluateAll", "$eval", "$$eval"]);

/**
 * Whether `node` is a function handed to the page (`page.addInitScript(() => …)`): there a
 * setTimeout schedules the page's work (or wraps it to count the page's timers) and waits for
 * nothing in the test; only a promise a timer settles is a sleep there.
 */
function runsInPage(node: ts.Node): boolean {
  const call = node.parent;
  if (!(ts.isArrowFunction(node) || ts.isFunctionExpression(node)) || !call || !ts.isCallExpression(call)) {
    return false;
  }
  const callee = call.expression;
  return (
    ts.isPropertyAccessExpression(callee) && IN_PAGE.has(callee.name.text) && call.arguments.includes(node)
  );
}

function containsSetTimeout(node: ts.Node): boolean {
  return isSetTimeoutReference(node) || (ts.forEachChild(node, containsSetTimeout) ?? false);
}

function mentions(node: ts.Node, name: string): boolean {
  return (
    (ts.isIdentifier(node) && node.text === name) ||
    (ts.forEachChild(node, (child) => mentions(child, name)) ?? false)
  );
}

/** `new Promise((resolve) => setTimeout(resolve, ms))` and its kin: a promise a timer settles. */
function isTimerPromise(node: ts.Node): boolean {
  if (!(ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "Promise")) {
    return false;
  }
  const [executor] = node.arguments ?? [];
  if (!executor) return false;
  if (!(ts.isArrowFunction(executor) || ts.isFunctionExpression(executor)))
    return containsSetTimeout(executor);
  const settlers = executor.parameters.flatMap((parameter) =>
    ts.isIdentifier(parameter.name) ? [parameter.name.text] : [],
  );
  const timerSettles = (child: ts.Node): boolean => {
    if (ts.isCallExpression(child) && isSetTimeoutReference(child.expression)) {
      const [callback] = child.arguments;
      if (callback && settlers.some((name) => mentions(callback, name))) return true;
    }
    return ts.forEachChild(child, timerSettles) ?? false;
  };
  return timerSettles(executor.body);
}

/** What a function's body comes to: its expression, or the one statement of its block. */
function soleResult(body: ts.ConciseBody): ts.Node | undefined {
  let result: ts.Node | undefined = body;
  if (ts.isBlock(body)) {
    const [only, ...rest] = body.statements;
    if (!only || rest.length > 0) return undefined;
    if (ts.isReturnStatement(only)) result = only.expression;
    else if (ts.isExpressionStatement(only)) result = only.expression;
    else return undefined;
  }
  while (result && (ts.isAwaitExpression(result) || ts.isParenthesizedExpression(result))) {
    result = result.expression;
  }
  return result;
}

/** A function's name: its own, or that of the variable or property it is the value of. */
function nameNode(node: ts.SignatureDeclaration): ts.Identifier | undefined {
  if (node.name && ts.isIdentifier(node.name)) return node.name;
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name)) {
    return parent.name;
  }
  return undefined;
}

const functionName = (node: ts.SignatureDeclaration) => nameNode(node)?.text;

/**
 * A sleep helper: a function whose body is a timer promise, or one named sleep, delay, pause or
 * wait… that starts a timer anywhere in its body.
 */
function sleepHelperName(node: ts.Node): string | undefined {
  if (
    !(
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node)
    ) ||
    !node.body
  ) {
    return undefined;
  }
  const name = functionName(node);
  const result = soleResult(node.body);
  if (result && isTimerPromise(result)) return name ?? "(anonymous)";
  if (name && SLEEPY_NAME.test(name) && containsSetTimeout(node.body)) return name;
  return undefined;
}

function moduleNamed(node: ts.Node): string | undefined {
  if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
    return node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)
      ? node.moduleSpecifier.text
      : undefined;
  }
  // require("…") and import("…")
  if (
    ts.isCallExpression(node) &&
    (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
      (ts.isIdentifier(node.expression) && node.expression.text === "require"))
  ) {
    const [first] = node.arguments;
    return first && ts.isStringLiteralLike(first) ? first.text : undefined;
  }
  return undefined;
}

function importsTimerFromTimers(node: ts.Node): boolean {
  if (!ts.isImportDeclaration(node)) return false;
  const bindings = node.importClause?.namedBindings;
  if (!bindings) return false;
  if (ts.isNamespaceImport(bindings)) return true;
  return bindings.elements.some((element) =>
    ["setTimeout", "setInterval"].includes((element.propertyName ?? element.name).text),
  );
}

interface Analysis {
  faults: FixedWait[];
  /** Names of the sleep helpers the file defines. */
  helpers: Set<string>;
  /** What it imports from files of its own (a relative module), with where. */
  imports: { module: string; name: string; line: number; column: number }[];
}

function analyse(source: string, fileName: string, allowance?: TimerAllowance): Analysis {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const analysis: Analysis = { faults: [], helpers: new Set(), imports: [] };
  const at = (node: ts.Node) => {
    const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
    return { line: line + 1, column: character + 1 };
  };
  const report = (node: ts.Node, what: string) => analysis.faults.push({ ...at(node), what });
  /** The named functions around the node visited, outermost first. */
  const enclosing: string[] = [];
  /** How many functions handed to the page surround the node visited. */
  let inPage = 0;
  const timersAllowed = () =>
    allowance !== undefined &&
    (allowance.functions === undefined || enclosing.some((name) => allowance.functions?.includes(name)));

  const visit = (node: ts.Node): void => {
    const helper = sleepHelperName(node);
    if (helper) {
      analysis.helpers.add(helper);
      report(
        nameNode(node as ts.SignatureDeclaration) ?? node,
        `sleep helper ${helper}: a function that waits a fixed time`,
      );
      return; // its timer is that one fault
    }
    const module = moduleNamed(node);
    if (module && TIMER_PROMISES.has(module) && !timersAllowed()) {
      report(node, `${module}: its timers are fixed waits`);
    } else if (module && TIMERS.has(module) && importsTimerFromTimers(node) && !timersAllowed()) {
      report(node, `setTimeout from ${module}: a fixed wait`);
    }
    if (ts.isImportDeclaration(node) && module?.startsWith(".")) {
      const bindings = node.importClause?.namedBindings;
      for (const element of bindings && ts.isNamedImports(bindings) ? bindings.elements : []) {
        analysis.imports.push({ module, name: (element.propertyName ?? element.name).text, ...at(element) });
      }
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : ts.isIdentifier(callee)
          ? callee.text
          : "";
      if (name === "waitForTimeout") {
        report(node, "waitForTimeout: a fixed wait; await a state (expect, expect.poll) or use page.clock");
      }
    }
    if (isTimerPromise(node) && !timersAllowed()) {
      report(node, "new Promise(… setTimeout …): a sleep; await a state or use fake timers");
      return;
    }
    if (isSetTimeoutReference(node) && !timersAllowed() && inPage === 0 && !ts.isTypeQueryNode(node.parent)) {
      report(node, "setTimeout: a clock; await a state, or use vi.useFakeTimers / page.clock");
      return;
    }
    const name = ts.isFunctionLike(node) ? functionName(node) : undefined;
    const page = runsInPage(node) ? 1 : 0;
    if (name) enclosing.push(name);
    inPage += page;
    ts.forEachChild(node, visit);
    inPage -= page;
    if (name) enclosing.pop();
  };
  visit(file);
  return analysis;
}

/**
 * The fixed waits in one file's source: waitForTimeout calls, setTimeout (a bare call, a promise
 * it resolves, a reference to it), imports of node:timers/promises, and sleep helpers.
 * `allowance` (a file of TIMERS_ALLOWED) lets the file start timers, nothing more.
 */
export function findFixedWaits(
  source: string,
  fileName = "sample.ts",
  allowance?: TimerAllowance,
): FixedWait[] {
  return analyse(source, fileName, allowance).faults;
}

function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : typeScriptFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The sleep helpers of the file a relative import names (in tests/ or not), if it is TypeScript. */
function helpersOf(path: string, cache: Map<string, Set<string>>): Set<string> {
  const known = cache.get(path);
  if (known) return known;
  const file = [path, `${path}.ts`, `${path}.tsx`, join(path, "index.ts")].find(
    (candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate),
  );
  const helpers = file ? analyse(readFileSync(file, "utf8"), file).helpers : new Set<string>();
  cache.set(path, helpers);
  return helpers;
}

/**
 * Every fixed wait under `folders`, as `file:line:column what` lines, files in order: also each
 * import of a sleep helper from another file, so its callers are named too.
 */
export function checkFolders(folders: string[], root: string): string[] {
  const helperCache = new Map<string, Set<string>>();
  return folders
    .flatMap((folder) => typeScriptFiles(resolve(root, folder)))
    .sort()
    .flatMap((path) => {
      const name = path.startsWith(root + sep) ? relative(root, path) : path;
      const { faults, imports } = analyse(
        readFileSync(path, "utf8"),
        path,
        Object.hasOwn(TIMERS_ALLOWED, name) ? TIMERS_ALLOWED[name] : undefined,
      );
      for (const { module, name: imported, line, column } of imports) {
        if (helpersOf(resolve(dirname(path), module), helperCache).has(imported)) {
          faults.push({ line, column, what: `imports sleep helper ${imported} from ${module}` });
        }
      }
      return faults
        .sort((one, other) => one.line - other.line || one.column - other.column)
        .map(({ line, column, what }) => `${name}:${line}:${column} ${what}`);
    });
}
