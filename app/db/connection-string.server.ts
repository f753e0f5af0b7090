/**
 * DATABASE_URL as the operator wrote it: checked before any connection, and described by its
 * host, port and database only, so no log line, error or `/healthz` answer can carry the secret
 * (an error is told by its code and fixed words: ~/db/error-words.server).
 */
export type ConnectionString =
  | {
      ok: true;
      url: string;
      /** `DATABASE_URL (host db, port 5432, database site)`: what log lines name. */
      described: string;
    }
  | { ok: false; problem: string };

/**
 * A character URL parsers end the user and password at, left unencoded in a password: the
 * parser reads what comes before it as the host and port, and the rest of the password as the
 * path, query or fragment (`postgres://site:2024#pw@db/site` is host `site`, port 2024).
 */
const MISREAD =
  "has a #, / or ? before its last @, so the password would be misread as the host, port or path: percent-encode the password (# as %23, / as %2F, ? as %3F, @ as %40)";
const UNDECODABLE =
  "has a % that does not begin an escape of UTF-8 (%XX, two hex digits): percent-encode the password (% as %25)";

export function parseConnectionString(raw: string): ConnectionString {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]?.toLowerCase();
  if (scheme === undefined) return notAUrl();
  if (scheme !== "postgres" && scheme !== "postgresql") {
    return { ok: false, problem: `must start with postgres:// (it starts with ${scheme}://)` };
  }
  // Checked on the text, before a parser gets to misread it: a `#`, `/` or `?` between `//` and
  // the last `@` can only be part of the user or password, which URL parsers end there. (An `@`
  // in the query, `?user=me@corp`, is refused too: encoded as %40 it reads the same.)
  const authority = raw.indexOf("//");
  const at = raw.lastIndexOf("@");
  if (authority !== -1 && at > authority && /[#/?]/.test(raw.slice(authority + 2, at))) {
    return { ok: false, problem: MISREAD };
  }
  if (!decodes(raw)) return { ok: false, problem: UNDECODABLE };

  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return notAUrl();
  }
  const host = url.searchParams.get("host") ?? url.hostname;
  if (host === "") return { ok: false, problem: "names no host" };
  const port = url.searchParams.get("port") ?? (url.port || "5432");
  const database = decodeURIComponent(url.pathname.slice(1));
  return {
    ok: true,
    url: raw,
    described: `DATABASE_URL (host ${host}, port ${port}${database ? `, database ${database}` : ""})`,
  };
}

function notAUrl(): ConnectionString {
  return { ok: false, problem: "is not a URL; write postgres://user:password@host:5432/database" };
}

/** Whether every `%` starts an escape and the escapes spell UTF-8, as decodeURIComponent needs. */
function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}
