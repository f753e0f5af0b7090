/**
 * The security headers of every response: the content security policy (by nonce or by hash), HSTS
 * and the permissions policy. Public pages send no Cross-Origin-Opener-Policy
 * (docs/decisions/040-no-opener-policy-on-public-pages.md); /admin sets its own.
 */
import { randomBytes } from "node:crypto";

export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The enforced Content-Security-Policy of HTML documents. Scripts run only by nonce
 * ('strict-dynamic' lets Remix's module preloads and lazy chunks load from there); styles
 * come from our own stylesheet only, so markup must never carry inline `style` attributes.
 */
export function contentSecurityPolicy(nonce: string): string {
  return documentPolicy(`'nonce-${nonce}'`);
}

/**
 * The same policy for a document shared by every visitor: its inline scripts run by their
 * SHA-256 hashes (base64) instead of a nonce, so the response holds nothing per request.
 */
export function hashedContentSecurityPolicy(scriptHashes: readonly string[]): string {
  return documentPolicy(scriptHashes.map((hash) => `'sha256-${hash}'`).join(" "));
}

function documentPolicy(scriptSources: string): string {
  return [
    "default-src 'self'",
    `script-src ${scriptSources} 'strict-dynamic'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * The policy of every response that is not an HTML document (data, XML, text, JSON): such a
 * response never needs to load or run anything, even when a browser is tricked into
 * rendering it.
 */
export const resourceSecurityPolicy =
  "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Two years, subdomains included. Browsers ignore HSTS received over plain http (RFC 6797
 * §8.1), so sending it always is safe on localhost and right behind a TLS-terminating proxy.
 */
export const strictTransportSecurity = "max-age=63072000; includeSubDomains";

export const permissionsPolicy =
  "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=(), browsing-topics=()";

/**
 * The headers every response carries. Documents pass their nonce; everything else gets the
 * locked-down resource policy (the server adds it to static files and its own answers).
 */
export function applySecurityHeaders(headers: Headers, nonce?: string): void {
  headers.set("Content-Security-Policy", nonce ? contentSecurityPolicy(nonce) : resourceSecurityPolicy);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("Permissions-Policy", permissionsPolicy);
  headers.set("Strict-Transport-Security", strictTransportSecurity);
  headers.set("X-Frame-Options", "DENY");
}

/** A resource route's response with the security headers applied (resource routes bypass entry.server). */
export function secureResponse(body: BodyInit | null, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  applySecurityHeaders(headers);
  return new Response(body, { ...init, headers });
}

/**
 * The policy of /admin's page only, where Decap CMS runs (docs/decisions/037-decap-cms.md): its
 * bundle is the site's own file, but it compiles its configuration's JSON schema into functions
 * at run time (ajv: 'unsafe-eval'), injects its styles (emotion), shows the editor's uploads as blob: URLs, previews in a frame of its own making, and talks to GitHub's API
 * (CMS_GITHUB_API_ROOT) or, when editing locally, to this server's /admin/api/v1. No public page
 * is served with it.
 */
export function adminContentSecurityPolicy(apiRoot: string): string {
  const backends = [new URL(apiRoot).origin];
  return [
    "default-src 'self'",
    "script-src 'self' 'unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https://avatars.githubusercontent.com https://raw.githubusercontent.com",
    "font-src 'self' data:",
    `connect-src 'self' blob: ${backends.join(" ")}`,
    "frame-src 'self' blob:",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The policy of the sign-in window's last page: its one inline script, by nonce, and nothing else. */
export function oauthCallbackPolicy(nonce: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}
