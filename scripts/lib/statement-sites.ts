/**
 * Every `.query(` call of app/ and server/, read from the syntax tree: where the code sends a
 * statement to PostgreSQL (scripts/record-statements.ts checks that each one sent something).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

export interface CallSite {
  /** From the repository's root: `app/leads/postgres/store.server.ts`. */
  file: string;
  /** The line of `query` (1-based), as a stack trace names the call. */
  line: number;
  /** The function around the call, as a reader finds it: `createPostgresLeadStore.has`. */
  function: string;
  /** The call's source text. */
  call: string;
  /** The statement when the call writes it as one literal; null when it builds it. */
  text: string | null;
  /** The statement is the caller's (a parameter, or a property of one): the wrapper every query passes through. */
  passThrough: boolean;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts"))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

/** The name a reader would look for: a function's, a method's, a variable's or property's holding one. */
function nameOf(node: ts.Node): string | null {
  const holdsFunction =
    (ts.isPropertyAssignment(node) || ts.isVariableDeclaration(node)) &&
    node.initializer !== undefined &&
    (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer));
  if (
    (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || holdsFunction) &&
    node.name &&
    (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))
  ) {
    return node.name.text;
  }
  return null;
}

/** The parameter names (destructured ones included) of the functions around `node`. */
function parametersAround(node: ts.Node): Set<string> {
  const names = new Set<string>();
  const add = (name: ts.BindingName) => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) add(element.name);
  };
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    if (ts.isFunctionLike(at)) for (const parameter of at.parameters) add(parameter.name);
    // A loop's variable is the caller's as much as a parameter (`for (const migration of migrations)`).
    if (ts.isForOfStatement(at) && ts.isVariableDeclarationList(at.initializer)) {
      for (const declaration of at.initializer.declarations) add(declaration.name);
    }
  }
  return names;
}

/** The identifier an expression starts from: `config` of `config.text`. */
function rootOf(expression: ts.Expression): ts.Identifier | null {
  if (ts.isIdentifier(expression)) return expression;
  if (ts.isPropertyAccessExpression(expression)) return rootOf(expression.expression);
  return null;
}

export function callSites(folders: readonly string[] = ["app", "server"]): CallSite[] {
  const sites: CallSite[] = [];
  for (const file of folders.flatMap(sourceFiles)) {
    const text = readFileSync(join(ROOT, file), "utf8");
    if (!text.includes(".query")) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === "query" &&
        node.arguments.length > 0
      ) {
        const [first] = node.arguments as unknown as [ts.Expression];
        const names: string[] = [];
        for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
          const name = nameOf(at);
          if (name) names.unshift(name);
        }
        const root = rootOf(first);
        sites.push({
          file,
          line: source.getLineAndCharacterOfPosition(node.expression.name.getStart(source)).line + 1,
          function: names.join(".") || "(module)",
          call: node.getText(source),
          text: ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first) ? first.text : null,
          passThrough: root !== null && parametersAround(node).has(root.text),
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return sites;
}
