/**
 * Serves the built site once over: from a few addresses every site has (the home page, robots.txt,
 * the sitemap, an address no page has), it fetches each address of the site's own origin that a
 * fetched document refers to, once, and keeps what the checks need of each answer (never the
 * bodies of images).
 */
import sharp from "sharp";
import { gzipBytes } from "../../tests/support/byte-budgets";
import { type DocumentParts, type MarkupFormat, readManifest, readRobots } from "./document-parts";

export interface ServedResource {
  /** The path and query it was fetched at. */
  path: string;
  /** The HTTP status; 0 when the server gave no answer. */
  status: number;
  /** The media type, without parameters. */
  type: string;
  /** A redirect's target, resolved. */
  location: string | null;
  /** The body's bytes at gzip -9. */
  gzip: number;
  /** A document's references and anchors; null for anything else. */
  parts: DocumentParts | null;
  /** An image type whose bytes cannot be read as that image: why. */
  imageProblem: string | null;
  /** Whether a page's HTML sends the app's JavaScript. */
  sendsBundle: boolean;
  /** Why no answer came, for status 0. */
  error: string | null;
}

/** Reads an HTML or XML document (the browser's parsers: ./document-parts.ts). */
export type ReadMarkup = (text: string, url: string, format: MarkupFormat) => Promise<DocumentParts>;

/** Fetches in flight at once: enough to keep a two-core machine's server busy, not more. */
const PARALLEL = 4;
const FETCH_TIMEOUT_MS = 60_000;
/** Icons Windows draws; sharp does not read the format, so their bytes are not decoded. */
const UNDECODED_IMAGES = new Set(["image/x-icon", "image/vnd.microsoft.icon"]);

/** The key a resource is kept under: its path and query, no fragment. */
export function keyOf(url: URL): string {
  return `${url.pathname}${url.search}`;
}

/**
 * Fetches `starts` from `origin` and every address of `origin` their documents refer to, each
 * once, `PARALLEL` at a time; `sendsBundle` tells whether a page's HTML sends the app's JavaScript.
 */
export async function serveEverything(
  origin: string,
  starts: string[],
  readMarkup: ReadMarkup,
  sendsBundle: (html: string) => boolean,
): Promise<Map<string, ServedResource>> {
  const served = new Map<string, ServedResource>();
  const queued = new Set<string>();
  const queue: string[] = [];
  const enqueue = (address: string) => {
    let url: URL;
    try {
      url = new URL(address, origin);
    } catch {
      return;
    }
    if (url.origin !== origin || queued.has(keyOf(url))) return;
    queued.add(keyOf(url));
    queue.push(keyOf(url));
  };
  for (const start of starts) enqueue(start);
  const worker = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const resource = await serveOne(origin, path, readMarkup, sendsBundle);
      served.set(path, resource);
      for (const reference of resource.parts?.references ?? []) enqueue(reference.url);
      if (resource.location) enqueue(resource.location);
    }
  };
  // A worker that finds the queue empty ends; the others may still add to it, so go again
  // until every worker ended with nothing left.
  while (queue.length > 0) await Promise.all(Array.from({ length: PARALLEL }, worker));
  return served;
}

async function serveOne(
  origin: string,
  path: string,
  readMarkup: ReadMarkup,
  sendsBundle: (html: string) => boolean,
): Promise<ServedResource> {
  const url = `${origin}${path}`;
  const resource: ServedResource = {
    path,
    status: 0,
    type: "",
    location: null,
    gzip: 0,
    parts: null,
    imageProblem: null,
    sendsBundle: false,
    error: null,
  };
  let response: Response;
  let body: Buffer;
  try {
    response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    body = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    resource.error = (error as Error).message;
    return resource;
  }
  resource.status = response.status;
  resource.type = (response.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const location = response.headers.get("location");
  if (location) resource.location = new URL(location, url).href;
  resource.gzip = gzipBytes(body);
  const text = () => body.toString("utf8");
  if (resource.type === "text/html") {
    resource.parts = await readMarkup(text(), url, "html");
    resource.sendsBundle = sendsBundle(text());
  } else if (/^(application|text)\/([a-z.+-]+\+)?xml$/.test(resource.type)) {
    resource.parts = await readMarkup(text(), url, "xml");
  } else if (/^application\/([a-z.+-]+\+)?json$/.test(resource.type)) {
    resource.parts = readManifest(text(), url);
  } else if (path === "/robots.txt") {
    resource.parts = readRobots(text(), url);
  } else if (resource.type.startsWith("image/") && !UNDECODED_IMAGES.has(resource.type)) {
    resource.imageProblem = await imageProblem(body);
  }
  return resource;
}

/** Why `bytes` are not an image a browser can draw, or null when sharp reads its size. */
async function imageProblem(bytes: Buffer): Promise<string | null> {
  try {
    const { width, height } = await sharp(bytes).metadata();
    return width && height ? null : "it has no width and height";
  } catch (error) {
    return (error as Error).message.split("\n")[0] ?? "sharp cannot read it";
  }
}
