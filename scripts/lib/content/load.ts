/**
 * Reads content/ and validates every file against its collection's schema (the registry in
 * app/content/collections): missing or too-long fields, images that do not exist or lack alt
 * text, duplicate slugs, links to pages that do not exist and raw HTML. Each fault is one line
 * naming the file, the field and what is wrong; nothing faulty reaches the app.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import matter from "gray-matter";
import sharp from "sharp";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import type { ContentCollection } from "~/content/collections/collection";
import { type CollectionName, collections } from "~/content/collections/index";
import type { ResponsiveImage } from "~/media/responsive-image";
import { renderMarkdown } from "./markdown";

export interface ContentFault {
  /** The file, relative to the repository root. */
  file: string;
  line?: number;
  field: string;
  message: string;
}

/** One line per fault: `content/insights/x.md:12: body: raw HTML is not allowed (<div>)`. */
export function formatFault(fault: ContentFault): string {
  return `${fault.file}${fault.line ? `:${fault.line}` : ""}: ${fault.field}: ${fault.message}`;
}

/**
 * An image as the build found it: its path under content/, alt text and intrinsic size; the
 * widths and formats made of a raster image are added by ./images.
 */
export interface LoadedImage {
  src: string;
  alt: string;
  width: number;
  height: number;
  responsive?: ResponsiveImage;
}

/** Whether a value of the loaded data is a measured image (the loader gave it its width). */
export function isLoadedImage(value: unknown): value is LoadedImage {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as LoadedImage).src === "string" &&
    typeof (value as LoadedImage).width === "number" &&
    typeof (value as LoadedImage).alt === "string"
  );
}

/** One file's validated data, with images measured and a Markdown body turned into HTML. */
export interface LoadedEntry {
  file: string;
  /** The file name without extension: the page's slug in a folder collection. */
  slug: string;
  data: Record<string, unknown>;
  html?: string;
  words?: number;
}

export type LoadedContent = Record<CollectionName, LoadedEntry[]>;

/** Pages of the app itself that content may link to, beside the content's own pages. */
const APP_PATHS = [
  "/",
  "/privacy-policy",
  "/terms-conditions",
  "/cookie-policy",
  "/case-studies",
  "/insights",
];

/** Where each folder collection's pages live on the site. */
const PAGE_PREFIX: Partial<Record<CollectionName, string>> = {
  "case-studies": "/case-studies/",
  insights: "/insights/",
};

interface PendingLink {
  file: string;
  line: number;
  path: string;
}

/** Reads and validates every collection under `<root>/content`. */
export async function loadContent(root: string): Promise<{ content: LoadedContent; faults: ContentFault[] }> {
  const faults: ContentFault[] = [];
  const links: PendingLink[] = [];
  const content = {} as LoadedContent;
  for (const [name, collection] of Object.entries(collections) as [CollectionName, ContentCollection][]) {
    const entries: LoadedEntry[] = [];
    for (const path of filesOf(root, collection, faults)) {
      const entry = await loadFile(root, path, collection, faults, links);
      if (entry) entries.push(entry);
    }
    checkDuplicates(collection, entries, faults);
    content[name] = entries.sort((a, b) => a.slug.localeCompare(b.slug));
  }
  const known = new Set(APP_PATHS);
  for (const [name, prefix] of Object.entries(PAGE_PREFIX) as [CollectionName, string][]) {
    for (const entry of content[name]) if (entry.data.published !== false) known.add(prefix + entry.slug);
  }
  for (const link of links) {
    const path = link.path.replace(/[?#].*$/, "").replace(/(.)\/$/, "$1");
    if (!known.has(path)) {
      faults.push({
        file: link.file,
        line: link.line,
        field: "body",
        message: `links to ${link.path}, a page that does not exist`,
      });
    }
  }
  return { content, faults };
}

function filesOf(root: string, collection: ContentCollection, faults: ContentFault[]): string[] {
  const extension = collection.format === "markdown" ? ".md" : ".yml";
  if (collection.kind === "file") {
    const path = join(root, "content", `${collection.name}${extension}`);
    if (existsSync(path)) return [path];
    faults.push({ file: relative(root, path), field: "(file)", message: "is missing" });
    return [];
  }
  const folder = join(root, "content", collection.name);
  if (!existsSync(folder)) return [];
  const files: string[] = [];
  for (const name of readdirSync(folder).sort()) {
    if (name.startsWith(".")) continue;
    if (name.endsWith(extension)) files.push(join(folder, name));
    else
      faults.push({
        file: relative(root, join(folder, name)),
        field: "(file)",
        message: `is not a ${extension} file`,
      });
  }
  return files;
}

async function loadFile(
  root: string,
  path: string,
  collection: ContentCollection,
  faults: ContentFault[],
  links: PendingLink[],
): Promise<LoadedEntry | null> {
  const file = relative(root, path);
  const slug = path.slice(path.lastIndexOf("/") + 1).replace(/\.(?:md|yml)$/, "");
  const raw = readFileSync(path, "utf8");
  let input: Record<string, unknown>;
  let bodyLine = 1;
  try {
    if (collection.format === "markdown") {
      const parsed = matter(raw);
      bodyLine = raw.slice(0, raw.length - parsed.content.length).split("\n").length;
      input = { ...parsed.data, body: parsed.content };
    } else {
      const parsed: unknown = parseYaml(raw);
      input = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
    }
  } catch (error) {
    faults.push({
      file,
      field: "(file)",
      message: `is not valid YAML: ${(error as Error).message.split("\n")[0]}`,
    });
    return null;
  }
  if (collection.kind === "folder" && !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug)) {
    faults.push({
      file,
      field: "(file name)",
      message: "must be lower-case letters, digits and hyphens: it is the page's address",
    });
  }
  const before = faults.length;
  const result = (collection.schema as z.ZodObject).safeParse(input);
  if (!result.success) {
    for (const issue of result.error.issues) {
      faults.push({ file, field: issue.path.join(".") || "(file)", message: describeIssue(issue, input) });
    }
  }
  const data = (result.success ? result.data : input) as Record<string, unknown>;
  if (result.success) await measureImages(root, file, data, "", faults);
  const entry: LoadedEntry = { file, slug, data };
  // The body's faults are reported with the fields', so one build names them all.
  if (collection.format === "markdown" && typeof data.body === "string") {
    const rendered = renderMarkdown(data.body);
    for (const fault of rendered.faults) {
      faults.push({ file, line: bodyLine + fault.line - 1, field: "body", message: fault.message });
    }
    for (const link of rendered.links) links.push({ file, line: bodyLine + link.line - 1, path: link.path });
    entry.html = rendered.html;
    entry.words = rendered.words;
  }
  return faults.length === before ? entry : null;
}

function describeIssue(issue: z.core.$ZodIssue, input: Record<string, unknown>): string {
  let value: unknown = input;
  for (const key of issue.path)
    value = (value as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey];
  if (value === undefined && issue.code === "invalid_type") return "is missing";
  return issue.message;
}

/** Replaces every `{ src, alt }` image in the data with its measured form, or records why it cannot be. */
async function measureImages(
  root: string,
  file: string,
  value: unknown,
  field: string,
  faults: ContentFault[],
): Promise<void> {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries())
      await measureImages(root, file, item, `${field}.${index}`, faults);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  const record = value as Record<string, unknown>;
  if (typeof record.src === "string" && typeof record.alt === "string" && Object.keys(record).length === 2) {
    const path = join(root, "content", record.src);
    if (!existsSync(path)) {
      faults.push({
        file,
        field: `${field.slice(1)}.src`,
        message: `${record.src} does not exist in content/`,
      });
      return;
    }
    if (path.endsWith(".svg") && svgDrawsText(readFileSync(path, "utf8"))) {
      faults.push({
        file,
        field: `${field.slice(1)}.src`,
        message: `${record.src} draws text with <text>: convert its text to outlines (paths) in the drawing program`,
      });
      return;
    }
    const { width, height } = await sharp(path).metadata();
    if (!width || !height) {
      faults.push({ file, field: `${field.slice(1)}.src`, message: `${record.src} has no width and height` });
      return;
    }
    record.width = width;
    record.height = height;
    return;
  }
  for (const [key, item] of Object.entries(record)) {
    if (key !== "body") await measureImages(root, file, item, `${field}.${key}`, faults);
  }
}

/**
 * An SVG's `<text>` is drawn with whatever fonts the visitor's device has (an image cannot use the
 * site's web fonts), so it looks different on every system, and looking those fonts up held up
 * the first frame of the pages that showed one (docs/performance.md, "Pages without a bundle").
 */
export function svgDrawsText(svg: string): boolean {
  return /<(text|tspan|textPath)[\s>/]/.test(svg);
}

/** A slug (or former slug) used twice, or an id used twice within a list collection. */
function checkDuplicates(
  collection: ContentCollection,
  entries: LoadedEntry[],
  faults: ContentFault[],
): void {
  if (collection.kind === "folder") {
    const owner = new Map<string, string>();
    for (const entry of entries) {
      const former = (entry.data.redirect_from as string[] | undefined) ?? [];
      for (const [slug, field] of [
        [entry.slug, "(file name)"],
        ...former.map((s) => [s, "redirect_from"]),
      ] as const) {
        const first = owner.get(slug);
        if (first) faults.push({ file: entry.file, field, message: `slug "${slug}" is also ${first}'s` });
        else owner.set(slug, entry.file);
      }
    }
    return;
  }
  for (const entry of entries) {
    for (const [key, list] of Object.entries(entry.data)) {
      if (!Array.isArray(list)) continue;
      const seen = new Set<string>();
      for (const [index, item] of list.entries()) {
        const id = (item as { id?: unknown }).id;
        if (typeof id !== "string") continue;
        if (seen.has(id))
          faults.push({ file: entry.file, field: `${key}.${index}.id`, message: `duplicate id "${id}"` });
        seen.add(id);
      }
    }
  }
}
