/** The SHA-256 hashes of a document's inline scripts, for a content security policy without a nonce. */
import { createHash } from "node:crypto";
import { inertScriptType } from "~/hydration/defer.server";

/**
 * Script types the page runs: classic and module scripts, and the inert hydration script that
 * the head script re-creates as a module once the page has painted. Chromium already trusts
 * that re-created script through 'strict-dynamic' (the hashed head script inserted it), but
 * CSP3 ties 'strict-dynamic' to script loads, so its own hash keeps it running in any browser.
 * Data blocks (JSON-LD) never run, so they need none.
 */
const runnableTypes = new Set(["", "module", "text/javascript", "application/javascript", inertScriptType]);

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/**
 * The base64 SHA-256 hashes of the document's inline scripts, in document order without
 * repeats: a script's text is the raw characters between its tags, hashed as UTF-8 (CSP3
 * §8.4), exactly what the browser hashes.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = "", text = ""] of html.matchAll(INLINE_SCRIPT)) {
    if (/\ssrc=/i.test(attributes)) continue;
    const type = /\stype="([^"]*)"/i.exec(attributes)?.[1]?.trim().toLowerCase() ?? "";
    if (!runnableTypes.has(type)) continue;
    hashes.add(createHash("sha256").update(text, "utf8").digest("base64"));
  }
  return [...hashes];
}
