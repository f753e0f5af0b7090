/**
 * Reads content/ and validates every file against its collection's schema (the registry in
 * app/content/collections): missing or too-long fields, images that do not exist or lack alt
 * text, duplicate slugs, links to pages that do not exist and raw HTML. Each fault is one line
 * naming the file, the field and what is wrong; nothing faulty reaches the app.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import sharp from "sharp";
import type { z } from "zod";
import type { ContentCollection } from "~/content/collections/collection";
import { type CollectionName, collections } from "~/content/collections/index";
import { policyNames } from "~/content/collections/policies";
import { controlCharactersIn } from "~/content/control-characters";
import { renderMarkdown } from "~/content/markdown.server";
import type { ResponsiveImage } from "~/media/responsive-image";
import { splitFrontMatter } from "./front-matter";
import { formatOfName, nameOfFormat, readImageHeader } from "./image-header";
import { MAX_BODY_BYTES, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_TEXT_FILE_BYTES, sizeOf } from "./limits";
import { plainTextFaults, policyFaults } from "./policy-rules";
import { readYamlData } from "./yaml-data";

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

/**
 * The path each measured image has in its content file (`images/photo.jpg`), which the image
 * step replaces in `src` with the URL it made: /admin's previews look built images up by it.
 */
export const contentPathOf = new WeakMap<LoadedImage, string>();

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
  "/privacy/withdraw",
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

/**
 * Reads and validates every collection in `dir` (`<root>/content` unless the build is pointed at
 * another folder: scripts/lib/content-directory.js); faults name files relative to `root`. With
 * `publishDate` (the day a build publishes for, ./publish-date), a link to a page dated later than
 * both that day and the linking page is a fault too: it would lead to a page not there yet.
 */
export async function loadContent(
  root: string,
  options: { dir?: string; publishDate?: string } = {},
): Promise<{ content: LoadedContent; faults: ContentFault[] }> {
  const dir = options.dir ?? join(root, "content");
  const faults: ContentFault[] = [];
  const links: PendingLink[] = [];
  const content = {} as LoadedContent;
  for (const [name, collection] of Object.entries(collections) as [CollectionName, ContentCollection][]) {
    const entries: LoadedEntry[] = [];
    for (const path of filesOf(root, dir, collection, faults)) {
      const entry = await loadFile(root, dir, path, collection, faults, links);
      if (entry) entries.push(entry);
    }
    checkDuplicates(collection, entries, faults);
    content[name] = entries.sort((a, b) => a.slug.localeCompare(b.slug));
  }
  // Each page a link may lead to, with the day it appears on the site ("" for always).
  const known = new Map(APP_PATHS.map((path) => [path, ""]));
  const fileDates = new Map<string, string>();
  for (const [name, prefix] of Object.entries(PAGE_PREFIX) as [CollectionName, string][]) {
    for (const entry of content[name]) {
      const date = typeof entry.data.date === "string" ? entry.data.date : "";
      fileDates.set(entry.file, date);
      if (entry.data.published !== false) known.set(prefix + entry.slug, date);
    }
  }
  faults.push(...featuredWorkFaults(content));
  for (const link of links) {
    const path = link.path.replace(/[?#].*$/, "").replace(/(.)\/$/, "$1");
    const appears = known.get(path);
    if (appears === undefined) {
      faults.push({
        file: link.file,
        line: link.line,
        field: "body",
        message: `links to ${link.path}, a page that does not exist`,
      });
    } else if (options.publishDate !== undefined) {
      const own = fileDates.get(link.file) ?? "";
      const linkingAppears = own.localeCompare(options.publishDate) > 0 ? own : options.publishDate;
      if (appears > linkingAppears) {
        faults.push({
          file: link.file,
          line: link.line,
          field: "body",
          message: `links to ${link.path}, which is dated ${appears} and is not on the site until then: link to it once it is, or date this page ${appears} or later`,
        });
      }
    }
  }
  return { content, faults };
}

/** The home page's work banner must name a published case study: it shows that study's cover, client and results. */
function featuredWorkFaults(content: LoadedContent): ContentFault[] {
  const [home] = content.home;
  const slug = (home?.data.work as { caseStudy?: string } | undefined)?.caseStudy;
  if (!home || slug === undefined) return [];
  const study = content["case-studies"].find((entry) => entry.slug === slug);
  if (study && study.data.published !== false) return [];
  return [
    {
      file: home.file,
      field: "work.caseStudy",
      message: study
        ? `names ${slug}, a case study that is not published: publish it or name another`
        : `names ${slug}, but there is no case study ${slug} (its file would be case-studies/${slug}.md)`,
    },
  ];
}

function filesOf(root: string, dir: string, collection: ContentCollection, faults: ContentFault[]): string[] {
  const extension = collection.format === "markdown" ? ".md" : ".yml";
  if (collection.kind === "file") {
    const path = join(dir, `${collection.name}${extension}`);
    if (existsSync(path)) return [path];
    faults.push({ file: relative(root, path), field: "(file)", message: "is missing" });
    return [];
  }
  const folder = join(dir, collection.name);
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
  dir: string,
  path: string,
  collection: ContentCollection,
  faults: ContentFault[],
  links: PendingLink[],
): Promise<LoadedEntry | null> {
  const file = relative(root, path);
  const slug = path.slice(path.lastIndexOf("/") + 1).replace(/\.(?:md|yml)$/, "");
  const bytes = statSync(path).size;
  if (bytes > MAX_TEXT_FILE_BYTES) {
    faults.push({
      file,
      field: "(file)",
      message: `is ${sizeOf(bytes)}; a content file is at most ${sizeOf(MAX_TEXT_FILE_BYTES)}`,
    });
    return null;
  }
  const read = readInput(readFileSync(path, "utf8"), collection.format);
  if (!read.ok) {
    faults.push({ file, ...read.fault });
    return null;
  }
  const { input, bodyLine } = read;
  if (collection.kind === "folder" && !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug)) {
    faults.push({
      file,
      field: "(file name)",
      message: "must be lower-case letters, digits and hyphens: it is the page's address",
    });
  }
  const before = faults.length;
  for (const found of controlCharactersIn(input)) {
    faults.push({
      file,
      ...(found.field === "body" ? { line: bodyLine + found.line - 1 } : {}),
      field: found.field,
      message: `holds the control character ${found.codePoint}, which no page can show: delete it (retype the text around it if it cannot be seen)`,
    });
  }
  const result = (collection.schema as z.ZodObject).safeParse(input);
  if (!result.success) {
    for (const issue of result.error.issues) {
      faults.push({ file, field: issue.path.join(".") || "(file)", message: describeIssue(issue, input) });
    }
  }
  const data = (result.success ? result.data : input) as Record<string, unknown>;
  if (result.success) await measureImages(dir, file, data, "", faults);
  const entry: LoadedEntry = { file, slug, data };
  // The body's faults are reported with the fields', so one build names them all.
  const bodyBytes = typeof data.body === "string" ? Buffer.byteLength(data.body) : 0;
  if (bodyBytes > MAX_BODY_BYTES) {
    faults.push({
      file,
      field: "body",
      message: `is ${sizeOf(bodyBytes)}; a body is at most ${sizeOf(MAX_BODY_BYTES)}: make it shorter or split it in two`,
    });
  } else if (collection.format === "markdown" && typeof data.body === "string") {
    const rendered = await renderMarkdown(data.body, data.lang === "hi" ? "hi" : "en");
    for (const fault of rendered.faults) {
      faults.push({ file, line: bodyLine + fault.line - 1, field: "body", message: fault.message });
    }
    for (const link of rendered.links) links.push({ file, line: bodyLine + link.line - 1, path: link.path });
    if ((policyNames as readonly string[]).includes(collection.name) && rendered.faults.length === 0) {
      for (const field of ["title", "summary"] as const) {
        for (const message of plainTextFaults(String(data[field] ?? "")))
          faults.push({ file, field, message });
      }
      for (const fault of policyFaults(data.body, rendered.html, collection.name === "privacy-policy")) {
        faults.push({ file, line: bodyLine + fault.line - 1, field: "body", message: fault.message });
      }
    }
    entry.html = rendered.html;
    entry.words = rendered.words;
  }
  return faults.length === before ? entry : null;
}

/** A file's fields (a Markdown file's body among them, as `body`), or the fault that stops its reading. */
function readInput(
  raw: string,
  format: ContentCollection["format"],
):
  | { ok: true; input: Record<string, unknown>; bodyLine: number }
  | { ok: false; fault: Omit<ContentFault, "file"> } {
  const split = format === "markdown" ? splitFrontMatter(raw) : { ok: true as const, yaml: raw, bodyLine: 1 };
  if (!split.ok) return { ok: false, fault: { line: split.line, field: "(file)", message: split.message } };
  const read = readYamlData(split.yaml);
  if (!read.ok) {
    // A front matter's YAML starts on the file's second line.
    const line = read.line && read.line + (format === "markdown" ? 1 : 0);
    return {
      ok: false,
      fault: { ...(line ? { line } : {}), field: "(file)", message: `is not valid YAML: ${read.message}` },
    };
  }
  const data =
    typeof read.data === "object" && read.data !== null ? (read.data as Record<string, unknown>) : {};
  return {
    ok: true,
    input: "body" in split ? { ...data, body: split.body } : data,
    bodyLine: split.bodyLine,
  };
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
  dir: string,
  file: string,
  value: unknown,
  field: string,
  faults: ContentFault[],
): Promise<void> {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries())
      await measureImages(dir, file, item, `${field}.${index}`, faults);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  const record = value as Record<string, unknown>;
  if (typeof record.src === "string" && typeof record.alt === "string" && Object.keys(record).length === 2) {
    const path = join(dir, record.src);
    const srcField = `${field.slice(1)}.src`;
    if (!existsSync(path)) {
      faults.push({ file, field: srcField, message: `${record.src} does not exist in content/` });
      return;
    }
    const problem = imageProblem(path, record.src);
    if (problem) {
      faults.push({ file, field: srcField, message: problem });
      return;
    }
    let size: { width?: number; height?: number };
    try {
      size = await sharp(path, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
    } catch (error) {
      faults.push({ file, field: srcField, message: unreadable(record.src, error) });
      return;
    }
    const { width, height } = size;
    if (!width || !height) {
      faults.push({ file, field: srcField, message: `${record.src} has no width and height` });
      return;
    }
    record.width = width;
    record.height = height;
    contentPathOf.set(record as unknown as LoadedImage, record.src);
    return;
  }
  for (const [key, item] of Object.entries(record)) {
    if (key !== "body") await measureImages(dir, file, item, `${field}.${key}`, faults);
  }
}

/**
 * Why the image file at `path` (named `src` in the content file) must not reach sharp, if it must
 * not: too many bytes, bytes that are not the format its name says, too many pixels by its
 * header, or an SVG that draws text.
 */
function imageProblem(path: string, src: string): string | undefined {
  const bytes = statSync(path).size;
  if (bytes > MAX_IMAGE_BYTES)
    return `${src} is ${sizeOf(bytes)}; an image is at most ${sizeOf(MAX_IMAGE_BYTES)}: export it smaller`;
  const promised = formatOfName(src);
  const header = readImageHeader(readFileSync(path));
  if (promised && header.format && header.format !== promised) {
    return `${src} is ${nameOfFormat(header.format)} image, not ${nameOfFormat(promised)}: export it again as ${nameOfFormat(promised)} image, or name it for what it is`;
  }
  if (!header.ok) return `${src} is not ${nameOfFormat(promised ?? "png")} image: ${header.reason}`;
  if (header.format === "svg") {
    return svgDrawsText(readFileSync(path, "utf8"))
      ? `${src} draws text with <text>: convert its text to outlines (paths) in the drawing program`
      : undefined;
  }
  const { width = 0, height = 0 } = header;
  if (width === 0 || height === 0) return `${src} has no width and height`;
  if (width * height > MAX_IMAGE_PIXELS) {
    return `${src} is ${width} × ${height} pixels (${Math.round((width * height) / 1e6)} megapixels); an image is at most ${MAX_IMAGE_PIXELS / 1e6} megapixels: export it smaller`;
  }
  return undefined;
}

/** One line for an image sharp could not read, with the first line of sharp's reason. */
export function unreadable(src: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const reason = message
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .join(" ")
    .slice(0, 160);
  return `${src} cannot be read as an image (${reason}): export it again`;
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
