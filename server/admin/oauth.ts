/**
 * /admin's GitHub sign-in, the handshake Decap CMS's GitHub backend expects of its `base_url`:
 * `/admin/auth` sends the window to GitHub's authorisation page with a signed state;
 * `/admin/callback` checks the state, trades the code for a token with the OAuth app's secret,
 * and hands the token to the editor that opened the window with `postMessage`, addressed to the
 * site's own origin only. Neither the code, the token nor the secret is ever logged; the secret
 * goes to the configured server only (no redirect is followed), and as often as the sign-in
 * limits allow.
 */
import { randomBytes } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type { Env } from "~/env.server";
import { oauthCallbackPolicy } from "~/http/security.server";
import { createStateSigner, type StateSigner } from "./oauth-state";
import { type SignInLimits, takeSignIn } from "./sign-in-limits";

/** What Decap asks for: `repo` (private repositories) or `public_repo`. */
const SCOPES = new Set(["repo", "public_repo"]);

const TOKEN_TIMEOUT_MS = 10_000;
/** GitHub's answer is a few hundred bytes; more is not read. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** A value from outside (a query parameter, GitHub's answer) as a log line may hold it: quoted, printable ASCII, 60 characters at most. */
export function loggedValue(value: string): string {
  return JSON.stringify(value.slice(0, 60)).replace(
    /[^\x20-\x7e]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The body of GitHub's answer as a JSON object, read up to MAX_ANSWER_BYTES; undefined when it is not one or longer. */
export async function answerBody(answer: globalThis.Response): Promise<Record<string, unknown> | undefined> {
  const reader = answer.body?.getReader();
  if (!reader) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  try {
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    return typeof body === "object" && body !== null ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The last page of the sign-in window: it posts the outcome to the editor, on this origin only. */
function handshakePage(
  origin: string,
  outcome: "success" | "error",
  content: object,
): { html: string; nonce: string } {
  const nonce = randomBytes(16).toString("base64");
  const message = `authorization:github:${outcome}:${JSON.stringify(content)}`;
  // Decap answers "authorizing:github" from the editor's window; only then does the token go.
  const script = `(function () {
  var origin = ${JSON.stringify(origin)};
  var message = ${JSON.stringify(message).replace(/</g, "\\u003c")};
  if (!window.opener) return;
  window.addEventListener("message", function receive(event) {
    if (event.origin !== origin || event.data !== "authorizing:github") return;
    window.removeEventListener("message", receive);
    window.opener.postMessage(message, origin);
  });
  window.opener.postMessage("authorizing:github", origin);
})();`;
  const text =
    outcome === "success"
      ? "Signed in. You can close this window."
      : "Sign-in failed. Close this window and try again.";
  return {
    nonce,
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Sign-in</title></head><body><p>${text}</p><script nonce="${nonce}">${script}</script></body></html>`,
  };
}

export function createOAuthHandlers({
  env,
  log,
  limits,
  clientOf,
  signer = env.CMS_GITHUB_CLIENT_SECRET ? createStateSigner(env.CMS_GITHUB_CLIENT_SECRET) : undefined,
}: {
  env: Env;
  log: (line: string) => void;
  limits: SignInLimits;
  /** The request's client as TRUST_PROXY lets it be known; null: unknown. */
  clientOf: (request: Request) => string | null;
  signer?: StateSigner;
}): { auth: RequestHandler; callback: RequestHandler } {
  const origin = env.SITE_URL;
  const redirectUri = `${env.SITE_URL}/admin/callback`;
  const tokenUrl = new URL("/login/oauth/access_token", env.CMS_GITHUB_OAUTH_URL);
  const { CMS_GITHUB_CLIENT_ID: clientId, CMS_GITHUB_CLIENT_SECRET: clientSecret } = env;

  const finish = (
    response: Response,
    outcome: "success" | "error",
    content: object,
    status = outcome === "success" ? 200 : 400,
  ) => {
    const page = handshakePage(origin, outcome, content);
    response.setHeader("Content-Security-Policy", oauthCallbackPolicy(page.nonce));
    // The window came back from GitHub: it must still reach its opener.
    response.setHeader("Cross-Origin-Opener-Policy", "unsafe-none");
    response.status(status).type("html").send(page.html);
  };
  /** `reason` is one line: anything in it from outside has gone through loggedValue. */
  const fail = (response: Response, reason: string, status?: number) => {
    log(`admin: a GitHub sign-in was refused: ${reason}`);
    finish(response, "error", { message: reason }, status);
  };

  const auth: RequestHandler = (request, response) => {
    if (!signer || !clientId) {
      log(
        "admin: GitHub sign-in is off: set CMS_GITHUB_REPO, CMS_GITHUB_CLIENT_ID and CMS_GITHUB_CLIENT_SECRET (docs/configuration.md)",
      );
      return finish(response, "error", { message: "GitHub sign-in is not configured on this server" });
    }
    const scope =
      typeof request.query.scope === "string" && SCOPES.has(request.query.scope)
        ? request.query.scope
        : "repo";
    const target = new URL("/login/oauth/authorize", env.CMS_GITHUB_OAUTH_URL);
    target.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      scope,
      state: signer.issue(),
    }).toString();
    response.setHeader("Cross-Origin-Opener-Policy", "unsafe-none");
    response.redirect(302, target.href);
  };

  /** Trades the code for a token at the configured server, following no redirect. */
  const exchange = async (response: Response, code: string) => {
    const answer = await fetch(tokenUrl, {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/json" },
      body: JSON.stringify({
        client_id: clientId,
        client_secret: clientSecret,
        code,
        redirect_uri: redirectUri,
      }),
      // A redirect would carry the secret wherever the answer points: it is a failed sign-in instead.
      redirect: "manual",
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    });
    if (answer.status >= 300 && answer.status < 400) {
      await answer.body?.cancel();
      return fail(
        response,
        `GitHub's token endpoint (${tokenUrl.host}) answered HTTP ${answer.status}, a redirect, which is not followed: CMS_GITHUB_OAUTH_URL must name the GitHub server itself`,
      );
    }
    const body = await answerBody(answer);
    if (!answer.ok || typeof body?.access_token !== "string") {
      const reason = typeof body?.error === "string" ? loggedValue(body.error) : `HTTP ${answer.status}`;
      return fail(response, `GitHub gave no token (${reason})`);
    }
    finish(response, "success", { token: body.access_token, provider: "github" });
  };

  const callback: RequestHandler = async (request, response) => {
    if (!signer || !clientId || !clientSecret) return fail(response, "GitHub sign-in is not configured");
    const { code, state, error } = request.query;
    if (error !== undefined) {
      return fail(response, `GitHub answered ${typeof error === "string" ? loggedValue(error) : "an error"}`);
    }
    let allowance: Awaited<ReturnType<typeof takeSignIn>>;
    try {
      // Taken before the state is redeemed, so that only allowed sign-ins are remembered as used.
      allowance = await takeSignIn(limits, clientOf(request));
    } catch {
      return fail(response, "the sign-in limits could not be counted", 503);
    }
    if (!allowance.allowed) {
      response.setHeader("Retry-After", String(allowance.retryAfterSeconds));
      return fail(
        response,
        `the ${allowance.by} is spent; try again in ${allowance.retryAfterSeconds} s`,
        429,
      );
    }
    const redeemed = signer.redeem(typeof state === "string" ? state : undefined);
    if (redeemed !== "ok" || typeof code !== "string" || code === "") {
      await allowance.giveBack().catch(() => {});
      return fail(response, redeemed !== "ok" ? `its state is ${redeemed}` : "GitHub sent no code");
    }
    try {
      await exchange(response, code);
    } catch (cause) {
      const name = cause instanceof Error ? cause.name : "an error";
      fail(response, `GitHub's token endpoint did not answer (${loggedValue(name)})`);
    }
  };
  return { auth, callback };
}
