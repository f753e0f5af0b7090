/**
 * Whether a GitHub token is an editor's: one that may push to CMS_GITHUB_REPO, as GitHub's API at
 * CMS_GITHUB_API_ROOT answers (the question Decap itself asks at sign-in). /admin's preview asks
 * it of every call when the editor signs in with GitHub. A yes is kept ten minutes for that token
 * (by its hash); asking GitHub is limited, site-wide and per known client, so tokens sent at
 * random cannot spend the site's calls to GitHub.
 */
import { createHash } from "node:crypto";
import { createLimit, type LimitStore, takeEach } from "~/http/limits.server";
import { answerBody, loggedValue } from "./oauth";

export const EDITOR_CHECK_WINDOW_SECONDS = 600;
/** An editor's token is asked about once per ten minutes; a few more for a browser restarted. */
export const EDITOR_CHECKS_PER_CLIENT = 20;
/** Everyone together, and everyone when no client is known (no TRUST_PROXY). */
export const EDITOR_CHECKS_SITE_WIDE = 60;

/** How long a yes is kept. */
const KEPT_MS = EDITOR_CHECK_WINDOW_SECONDS * 1000;
/** Tokens whose yes is kept at most: an agency's staff are far fewer. */
const MAX_KEPT = 1_000;
const CHECK_TIMEOUT_MS = 10_000;

export type EditorAnswer =
  | { editor: true }
  | { editor: false; why: "no push access" | "GitHub did not answer" }
  | { editor: false; why: "too many checks"; retryAfterSeconds: number };

export interface EditorCheckOptions {
  apiRoot: string;
  /** owner/name. */
  repo: string;
  /** Where the limits count: the database's store with DATABASE_URL, memory otherwise. */
  limitStore?: LimitStore | undefined;
  log: (line: string) => void;
}

export type EditorCheck = (token: string, client: string | null) => Promise<EditorAnswer>;

export function createEditorCheck({ apiRoot, repo, limitStore, log }: EditorCheckOptions): EditorCheck {
  const windowSeconds = EDITOR_CHECK_WINDOW_SECONDS;
  const site = createLimit({
    name: "site-wide editor-check level",
    limit: EDITOR_CHECKS_SITE_WIDE,
    windowSeconds,
    store: limitStore,
  });
  const perClient = createLimit({
    name: "editor-check budget",
    limit: EDITOR_CHECKS_PER_CLIENT,
    windowSeconds,
    store: limitStore,
  });
  const kept = new Map<string, number>();
  const url = `${apiRoot.replace(/\/$/, "")}/repos/${repo}`;

  return async (token, client) => {
    const key = createHash("sha256").update(token).digest("hex");
    const until = kept.get(key);
    if (until !== undefined && until > Date.now()) return { editor: true };
    kept.delete(key);
    const takes: Parameters<typeof takeEach>[0] = [{ limit: site, key: "site" }];
    if (client !== null) takes.push({ limit: perClient, key: client });
    const allowance = await takeEach(takes);
    if (!allowance.allowed) {
      return { editor: false, why: "too many checks", retryAfterSeconds: allowance.retryAfterSeconds };
    }
    let answer: globalThis.Response;
    try {
      answer = await fetch(url, {
        headers: { Authorization: `token ${token}`, Accept: "application/vnd.github+json" },
        redirect: "manual",
        signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: unknown } }).cause?.code;
      log(
        `admin: GitHub's API did not answer the preview's question whether a token may push to ${repo} (${loggedValue(String(cause ?? (error as Error).name))}); check CMS_GITHUB_API_ROOT and the network`,
      );
      return { editor: false, why: "GitHub did not answer" };
    }
    const body = answer.ok ? await answerBody(answer) : undefined;
    const permissions = body?.permissions as { push?: unknown } | undefined;
    if (permissions?.push !== true) return { editor: false, why: "no push access" };
    if (kept.size >= MAX_KEPT) {
      const [oldest] = kept.keys();
      if (oldest !== undefined) kept.delete(oldest);
    }
    kept.set(key, Date.now() + KEPT_MS);
    return { editor: true };
  };
}
