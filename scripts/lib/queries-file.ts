/**
 * Writes recorded statements as the previous release's queries.sql: each prepared as the code
 * wrote it and executed with the values it bound, in the order they were sent, under a comment
 * naming where in the code it comes from (tests/support/previous-release.ts reads it back).
 */

export interface RecordedStatement {
  /** Where it comes from: `app/leads/postgres/store.server.ts: createPostgresLeadStore.has`. */
  source: string;
  text: string;
  /** As pg sends them: text, or null. */
  values: (string | null)[];
  /** PostgreSQL refused it when it was recorded (a statement the code expects to fail is not one to keep). */
  failed: boolean;
}

const HEADER = `-- Every statement a release sends to PostgreSQL, as its code writes it, each prepared and run
-- with values as the code binds them, in the order they were sent. The next release must run
-- all of them on its schema: this one keeps running beside it during a rolling deploy.
-- Written by \`npm run release\` (scripts/record-statements.ts), never by hand.
-- A statement ends with ";" at the end of a line; the comment above it says where it comes from.
`;

const literal = (value: string | null) => (value === null ? "NULL" : `'${value.replaceAll("'", "''")}'`);

/** queries.sql's text for `statements`. */
export function queriesFile(statements: readonly RecordedStatement[]): string {
  const names = new Map<string, string>();
  const blocks: string[] = [];
  let source = "";
  for (const statement of statements) {
    const text = statement.text.trim().replace(/;$/, "");
    const lines = [...text.split("\n"), ...statement.values.flatMap((value) => value?.split("\n") ?? [])];
    if (lines.some((line) => line.trimEnd().endsWith(";"))) {
      throw new Error(`a line of this statement ends with ";", which queries.sql reads as its end:\n${text}`);
    }
    const sql: string[] = [];
    if (statement.values.length === 0) {
      sql.push(`${text};`);
    } else {
      let name = names.get(text);
      if (!name) {
        name = `statement_${names.size + 1}`;
        names.set(text, name);
        sql.push(`PREPARE ${name} AS ${text};`);
      }
      sql.push(`EXECUTE ${name}(${statement.values.map(literal).join(", ")});`);
    }
    if (statement.source !== source) {
      source = statement.source;
      blocks.push(`\n-- ${source}`);
    }
    blocks.push(...sql);
  }
  return `${HEADER}${blocks.join("\n")}\n`;
}
