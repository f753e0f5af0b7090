/**
 * A database error in words the site wrote and its code (`password authentication failed
 * (28P01)`, `connection refused (ECONNREFUSED)`): never the server's message, which can echo
 * the role, the database or the password, and which no masking can clean without harm.
 */
import { errorCode, networkWords } from "~/network-errors";

/** PostgreSQL's SQLSTATE codes an operator meets, in words (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
const SQLSTATE_WORDS: Record<string, string> = {
  "08001": "the client could not open a connection",
  "08004": "the server refused the connection",
  "08006": "the connection failed",
  "08P01": "protocol violation",
  "28000": "the role may not log in here (pg_hba.conf, or no such role)",
  "28P01": "password authentication failed",
  "3D000": "database does not exist",
  "3F000": "schema does not exist",
  "42501": "permission denied",
  "42P01": "a table does not exist",
  "53100": "the database's disk is full",
  "53200": "the database is out of memory",
  "53300": "too many connections",
  "55P03": "a lock was not granted in time",
  "57014": "the statement was cancelled (statement timeout)",
  "57P01": "the connection was terminated by an administrator or a shutdown",
  "57P02": "the database server crashed",
  "57P03": "the database is starting up or shutting down",
  "40001": "serialization failure",
  "40P01": "deadlock detected",
  "25006": "the database is read-only (a standby?)",
};

/** What each SQLSTATE class (its first two characters) means, for a code the table above lacks. */
const CLASS_WORDS: Record<string, string> = {
  "08": "connection error",
  "22": "invalid data",
  "23": "a constraint was violated",
  "25": "invalid transaction state",
  "28": "login refused",
  "3D": "invalid database",
  "40": "the transaction was rolled back",
  "42": "the statement was refused",
  "53": "the database lacks resources",
  "54": "a limit was exceeded",
  "55": "an object is not ready",
  "57": "the database intervened",
  "58": "a system error at the database",
  XX: "an internal error at the database",
};

/** The pg library's own errors without a code, each a fixed text of the library: their words. */
const LIBRARY_WORDS: readonly [RegExp, string][] = [
  [/^timeout exceeded when trying to connect$/, "no free connection in time"],
  [/^Connection terminated due to connection timeout$/, "no connection within the time limit"],
  [/^Connection terminated unexpectedly$/, "the connection closed unexpectedly"],
  [/^Connection terminated$/, "the connection was closed"],
  [/^Query read timeout$/, "the query timed out"],
  [/^The server does not support SSL connections$/, "the server does not offer TLS, which sslmode asks for"],
  [/^Client has encountered a connection error and is not queryable$/, "the connection had failed"],
];

/** Whether `code` has the form of a SQLSTATE: five digits or upper-case letters. */
const isSqlState = (code: string) => /^[0-9A-Z]{5}$/.test(code);

/**
 * A database error (from `pg`, the server, or the network) as fixed words and its code: the
 * SQLSTATE of an error the server sent, Node's code of a network or TLS error, or the words
 * of one of pg's own errors; otherwise the error's class name only.
 */
export function describeDatabaseError(error: unknown): string {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  if (typeof code === "string" && isSqlState(code) && !/^E[A-Z]+$/.test(code)) {
    const words = SQLSTATE_WORDS[code] ?? CLASS_WORDS[code.slice(0, 2)] ?? "PostgreSQL refused it";
    return `${words} (${code})`;
  }
  const nodeCode = errorCode(error);
  if (nodeCode !== undefined) return `${networkWords(nodeCode) ?? "system error"} (${nodeCode})`;
  if (error instanceof Error) {
    const known = LIBRARY_WORDS.find(([pattern]) => pattern.test(error.message));
    if (known) return known[1];
    return `an error the site does not know (${error.name}, no code)`;
  }
  return "an error the site does not know (no code)";
}
