/**
 * The meta of the not-found page and of a page whose loader answered an error (404, 410), apart
 * from ~/utils/meta so that the home page's bundle does not carry the error pages' words.
 */
import type { MetaDescriptor } from "@remix-run/node";
import { fillWords, pageWords, titleOf } from "~/content/page-words";

/** The meta of a page whose loader answered an error (404, 410): the not-found page's, not indexed. */
export function errorMeta(): MetaDescriptor[] {
  return [
    { title: titleOf(pageWords.errors.notFound.title) },
    { name: "description", content: fillWords(pageWords.errors.notFound.description) },
    { name: "robots", content: "noindex" },
  ];
}
