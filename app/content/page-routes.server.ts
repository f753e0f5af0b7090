/** What a content page's loader answers for a slug that is not a page: 301 to its new slug, 410, or 404. */
import { redirect } from "@remix-run/node";
import type { Lookup } from "./pages.server";

/** The entry a slug names, or the response a loader throws: 301 (query kept), 410 or 404. */
export function entryOrThrow<Entry>(lookup: Lookup<Entry>, request: Request, prefix: string): Entry {
  if (lookup.found === "page") return lookup.entry;
  if (lookup.found === "moved") {
    throw redirect(`${prefix}${lookup.slug}${new URL(request.url).search}`, 301);
  }
  if (lookup.found === "gone") throw new Response("Gone", { status: 410 });
  throw new Response("Not Found", { status: 404 });
}
