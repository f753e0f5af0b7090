/**
 * What `npm run check:content` reads in a served document: the addresses it refers to (links,
 * images, stylesheets, scripts, a sitemap's and a feed's entries, a manifest's icons), the
 * anchors a link's fragment may name, and whether its bytes are well-formed at all. HTML and
 * XML are parsed by the browser's own parsers (DOMParser), the way a visitor's browser and a
 * feed reader read them.
 */
import type { Page } from "@playwright/test";

export interface Reference {
  /** The address, resolved against the document's (as written when it cannot be). */
  url: string;
  /** What refers to it, as an editor finds it on the page: `the link "Read the case study"`. */
  label: string;
  /** An image must load as one; anything else must answer 200. */
  image: boolean;
}

export interface DocumentParts {
  references: Reference[];
  /** The ids (and `<a name>`s) a fragment may name; null for a document that has none (XML, JSON). */
  anchors: string[] | null;
  /** The stylesheets the page loads, resolved. */
  stylesheets: string[];
  /** Why the bytes are not a well-formed document of their type; null when they are. */
  malformed: string | null;
}

export type MarkupFormat = "html" | "xml";

/** Reads an HTML or XML document with the browser's parser, in `page` (any page will do: nothing is loaded). */
export function readMarkup(
  page: Page,
  text: string,
  url: string,
  format: MarkupFormat,
): Promise<DocumentParts> {
  return page.evaluate(partsInBrowser, { text, url, format });
}

/** Runs in the page: everything of `DocumentParts` from one document's text. */
function partsInBrowser({
  text,
  url,
  format,
}: {
  text: string;
  url: string;
  format: MarkupFormat;
}): DocumentParts {
  const references: Reference[] = [];
  const stylesheets: string[] = [];
  /** A short quote of an element's words, on one line. */
  const words = (value: string | null | undefined) => {
    const line = (value ?? "").replace(/\s+/g, " ").trim();
    return line.length > 60 ? `${line.slice(0, 57)}…` : line;
  };
  const resolve = (value: string) => {
    try {
      return new URL(value, url).href;
    } catch {
      return value;
    }
  };
  const add = (value: string | null | undefined, label: string, image: boolean) => {
    const written = value?.trim();
    if (written) references.push({ url: resolve(written), label, image });
  };

  if (format === "xml") {
    const document = new DOMParser().parseFromString(text, "application/xml");
    const error = document.getElementsByTagName("parsererror")[0];
    if (error) return { references, anchors: null, stylesheets, malformed: words(error.textContent) };
    for (const loc of document.getElementsByTagNameNS("*", "loc")) add(loc.textContent, "its <loc>", false);
    for (const link of document.getElementsByTagNameNS("*", "link")) {
      add(link.getAttribute("href"), `its <link rel="${link.getAttribute("rel") ?? "alternate"}">`, false);
    }
    for (const name of ["icon", "logo"]) {
      for (const element of document.getElementsByTagNameNS("*", name))
        add(element.textContent, `its <${name}>`, true);
    }
    return { references, anchors: null, stylesheets, malformed: null };
  }

  // A parsed document runs no script, so <noscript> content is read as the elements it holds.
  const document = new DOMParser().parseFromString(text, "text/html");
  const anchors = [
    ...[...document.querySelectorAll("[id]")].map((element) => element.id),
    ...[...document.querySelectorAll("a[name]")].map((element) => element.getAttribute("name") ?? ""),
  ];
  for (const link of document.querySelectorAll("a[href], area[href]")) {
    const name =
      link.getAttribute("aria-label") ||
      words(link.textContent) ||
      link.querySelector("img")?.getAttribute("alt") ||
      link.getAttribute("title");
    add(link.getAttribute("href"), `the link "${words(name)}"`, false);
  }
  for (const link of document.querySelectorAll("link[href]")) {
    const rel = link.getAttribute("rel") ?? "";
    add(link.getAttribute("href"), `<link rel="${rel}">`, false);
    if (rel.split(/\s+/).includes("stylesheet")) stylesheets.push(resolve(link.getAttribute("href") ?? ""));
  }
  for (const script of document.querySelectorAll("script[src]"))
    add(script.getAttribute("src"), "<script src>", false);
  const candidates = (srcset: string | null) =>
    (srcset ?? "")
      .split(",")
      .map((candidate) => candidate.trim().split(/\s+/)[0])
      .filter((candidate): candidate is string => Boolean(candidate));
  for (const image of document.querySelectorAll("img")) {
    const label = `the image "${words(image.getAttribute("alt"))}"`;
    add(image.getAttribute("src"), label, true);
    for (const candidate of candidates(image.getAttribute("srcset"))) add(candidate, label, true);
  }
  for (const source of document.querySelectorAll("source[srcset]")) {
    const alt = source.closest("picture")?.querySelector("img")?.getAttribute("alt");
    for (const candidate of candidates(source.getAttribute("srcset"))) {
      add(
        candidate,
        `the image "${words(alt)}" (<source type="${source.getAttribute("type") ?? ""}">)`,
        true,
      );
    }
  }
  for (const meta of document.querySelectorAll('meta[property="og:image"], meta[name="twitter:image"]')) {
    const name = meta.getAttribute("property") ?? meta.getAttribute("name");
    add(meta.getAttribute("content"), `<meta ${name}>`, true);
  }
  return { references, anchors, stylesheets, malformed: null };
}

/** `value` resolved against `base`, or as written when it is no address. */
function resolved(value: string, base: string): string {
  try {
    return new URL(value, base).href;
  } catch {
    return value;
  }
}

/** The `Sitemap:` lines of a robots.txt. */
export function readRobots(text: string, url: string): DocumentParts {
  const references = [...text.matchAll(/^sitemap:\s*(\S+)/gim)].map(([, address = ""]) => ({
    url: resolved(address, url),
    label: "its Sitemap: line",
    image: false,
  }));
  return { references, anchors: null, stylesheets: [], malformed: null };
}

/** A web app manifest's icons and start address, or why it is not JSON. */
export function readManifest(text: string, url: string): DocumentParts {
  let manifest: { icons?: { src?: unknown }[]; start_url?: unknown };
  try {
    manifest = JSON.parse(text) as typeof manifest;
  } catch (error) {
    return {
      references: [],
      anchors: null,
      stylesheets: [],
      malformed: `not JSON: ${(error as Error).message}`,
    };
  }
  const references: Reference[] = [];
  if (typeof manifest.start_url === "string") {
    references.push({ url: resolved(manifest.start_url, url), label: "its start_url", image: false });
  }
  for (const icon of manifest.icons ?? []) {
    if (typeof icon.src === "string") {
      references.push({ url: resolved(icon.src, url), label: "its icon", image: true });
    }
  }
  return { references, anchors: null, stylesheets: [], malformed: null };
}
