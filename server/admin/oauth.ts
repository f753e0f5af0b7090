/**
 * /admin's GitHub sign-in, the handshake Decap CMS's GitHub backend expects of its `base_url`:
 * `/admin/auth` sends the window to GitHub's authorisation page with a signed state;
 * `/admin/callback` checks the state, trades the code for a token with the OAuth app's secret,
 * and hands the token to the editor that opened the window with `postMessage`, addressed to the
 * site's own origin only. Neither the code, the token nor the secret is ever logged.
 */
import { randomBytes } from "node:crypto";
import type { RequestHandler, Response } from "express";
import type { Env } from "~/env.server";
import { oauthCallbackPolicy } from "~/http/security.server";
import { createStateSigner, type StateSigner } from "./oauth-state";

/** What Decap asks for: `repo` (private repositories) or `public_repo`. */
const SCOPES = new Set(["repo", "public_repo"]);

const TOKEN_TIMEOUT_MS = 10_000;

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
  signer = env.CMS_GITHUB_CLIENT_SECRET ? createStateSigner(env.CMS_GITHUB_CLIENT_SECRET) : undefined,
}: {
  env: Env;
  log: (line: string) => void;
  signer?: StateSigner;
}): { auth: RequestHandler; callback: RequestHandler } {
  const origin = new URL(env.SITE_URL).origin;
  const redirectUri = `${env.SITE_URL}/admin/callback`;
  const { CMS_GITHUB_CLIENT_ID: clientId, CMS_GITHUB_CLIENT_SECRET: clientSecret } = env;

  const finish = (response: Response, outcome: "success" | "error", content: object) => {
    const page = handshakePage(origin, outcome, content);
    response.setHeader("Content-Security-Policy", oauthCallbackPolicy(page.nonce));
    // The window came back from GitHub: it must still reach its opener.
    response.setHeader("Cross-Origin-Opener-Policy", "unsafe-none");
    response
      .status(outcome === "success" ? 200 : 400)
      .type("html")
      .send(page.html);
  };
  const fail = (response: Response, reason: string) => {
    log(`admin: a GitHub sign-in was refused: ${reason}`);
    finish(response, "error", { message: reason });
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

  const callback: RequestHandler = async (request, response) => {
    if (!signer || !clientId || !clientSecret) return fail(response, "GitHub sign-in is not configured");
    const { code, state, error } = request.query;
    if (typeof error === "string") return fail(response, `GitHub answered ${error.slice(0, 60)}`);
    const redeemed = signer.redeem(typeof state === "string" ? state : undefined);
    if (redeemed !== "ok") return fail(response, `its state is ${redeemed}`);
    if (typeof code !== "string" || code === "") return fail(response, "GitHub sent no code");
    try {
      const answer = await fetch(new URL("/login/oauth/access_token", env.CMS_GITHUB_OAUTH_URL), {
        method: "POST",
        headers: { Accept: "application/json", "Content-Type": "application/json" },
        body: JSON.stringify({
          client_id: clientId,
          client_secret: clientSecret,
          code,
          redirect_uri: redirectUri,
        }),
        signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
      });
      const body = (await answer.json()) as { access_token?: unknown; error?: unknown };
      if (!answer.ok || typeof body.access_token !== "string") {
        const reason = typeof body.error === "string" ? body.error.slice(0, 60) : `HTTP ${answer.status}`;
        return fail(response, `GitHub gave no token (${reason})`);
      }
      finish(response, "success", { token: body.access_token, provider: "github" });
    } catch (cause) {
      fail(response, `GitHub's token endpoint did not answer (${(cause as Error).name})`);
    }
  };
  return { auth, callback };
}
