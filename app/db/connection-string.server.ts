/**
 * DATABASE_URL as the operator wrote it: checked before any connection, and described without
 * its password, so no log line, error or `/healthz` answer can carry the secret.
 */
export type ConnectionString =
  | { ok: true; url: string; password: string; described: string }
  | { ok: false; problem: string };

export function parseConnectionString(raw: string): ConnectionString {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: "is not a URL; write postgres://user:password@host:5432/database" };
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    return {
      ok: false,
      problem: `must start with postgres:// (it starts with ${url.protocol}//)`,
    };
  }
  if (url.hostname === "" && !url.searchParams.has("host")) {
    return { ok: false, problem: "names no host" };
  }
  const password = decodeURIComponent(url.password);
  const shown = new URL(url.href);
  if (shown.password !== "") shown.password = "***";
  for (const key of [...shown.searchParams.keys()]) {
    if (/password|key/i.test(key)) shown.searchParams.set(key, "***");
  }
  return { ok: true, url: raw, password, described: shown.href };
}

/** `text` with every occurrence of the password replaced, for errors that might echo it. */
export function withoutPassword(text: string, password: string): string {
  return password === "" ? text : text.split(password).join("***");
}
