/**
 * An entry posted by /admin's preview, made into what the page is given, the way the content
 * build makes it (docs/decisions/049-previews-rendered-by-the-site.md): validated with its
 * collection's schema, refused for the control characters and Markdown faults the build refuses,
 * its body made HTML by the build's own pipeline, and each image it names replaced by the image
 * the build made of that file, or by the editor's own copy when the build has none (an upload not
 * yet built). Only data goes in; nothing posted is ever run.
 */
import type { z } from "zod";
import type { ContentCollection } from "~/content/collections/collection";
import { controlCharactersIn } from "~/content/control-characters";
import type { ContentImageData } from "~/content/entries";
import { builtImages } from "~/content/generated/images.server";
import { renderMarkdown } from "~/content/markdown.server";

/** A field the editor must fix before the entry is a page, as the build would name it. */
export interface PreviewFault {
  field: string;
  message: string;
}

/**
 * The scheme of an image the build has not made (an upload in the editor only): the preview's
 * script in /admin swaps `preview:images/photo.jpg` for the editor's copy of that file before
 * the document is shown, so no request ever names it.
 */
export const PENDING_IMAGE_SCHEME = "preview:";

/**
 * A pending image's nominal size: the page reserves the box from width and height until the file
 * is loaded, then takes the file's own proportions (its `height: auto`), so only that first
 * moment differs from the built page, which knows the file's size.
 */
const PENDING_SIZE = { width: 1600, height: 900 };

/** Each `{ src, alt }` image anywhere in a type made the measured image the page is given. */
export type Resolved<T> = T extends { src: string; alt: string }
  ? ContentImageData
  : T extends readonly unknown[]
    ? { [K in keyof T]: Resolved<T[K]> }
    : T extends object
      ? { [K in keyof T]: Resolved<T[K]> }
      : T;

/** An entry ready for its page's components: its fields, and for Markdown its body as HTML. */
export interface PreviewEntry<Data> {
  /** The entry's slug (its file's name), or "" for an entry not yet saved. */
  slug: string;
  data: Resolved<Data>;
  /** The body as HTML (Markdown collections). */
  html: string;
  /** The body's words, for the reading time (Markdown collections). */
  words: number;
}

export type PreparedEntry<Data> =
  | { ok: true; entry: PreviewEntry<Data> }
  | { ok: false; faults: PreviewFault[] };

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** `posted` (`{ slug, data }`) as its collection's page would be given it, or the faults that stop it. */
export async function prepareEntry<Schema extends z.ZodObject>(
  collection: ContentCollection<Schema>,
  posted: unknown,
): Promise<PreparedEntry<z.output<Schema>>> {
  const { slug, data } = (typeof posted === "object" && posted !== null ? posted : {}) as {
    slug?: unknown;
    data?: unknown;
  };
  const faults: PreviewFault[] = controlCharactersIn(data).map((found) => ({
    field: fieldLabel(collection.schema, found.field.split(".")),
    message: `holds the control character ${found.codePoint}, which no page can show`,
  }));
  const parsed = collection.schema.safeParse(data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      faults.push({
        field: fieldLabel(collection.schema, issue.path),
        message: valueAt(data, issue.path) === undefined ? "is missing" : issue.message,
      });
    }
  }
  if (!parsed.success || faults.length > 0) return { ok: false, faults };
  const fields = parsed.data as z.output<Schema> & { body?: unknown; lang?: unknown };
  let html = "";
  let words = 0;
  if (collection.format === "markdown" && typeof fields.body === "string") {
    const rendered = await renderMarkdown(fields.body, fields.lang === "hi" ? "hi" : "en");
    if (rendered.faults.length > 0) {
      return {
        ok: false,
        faults: rendered.faults.map((fault) => ({
          field: fieldLabel(collection.schema, ["body"]),
          message: `line ${fault.line}: ${fault.message}`,
        })),
      };
    }
    ({ html, words } = rendered);
  }
  return {
    ok: true,
    entry: {
      slug: typeof slug === "string" && SLUG.test(slug) ? slug : "",
      data: resolveImages(fields) as Resolved<z.output<Schema>>,
      html,
      words,
    },
  };
}

/** The value at `path` in `data`, or undefined. */
function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path) value = (value as Record<PropertyKey, unknown> | null | undefined)?.[key];
  return value;
}

interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  items?: z.ZodType[];
  shape?: Record<string, z.ZodType>;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;

/**
 * A field as the editor labels it (its schema's `.meta({ title })`), from its path in the data:
 * `Results › 2 › Figure`, where the build says `results.1.value`.
 */
function fieldLabel(schema: z.ZodType, path: readonly PropertyKey[]): string {
  const labels: string[] = [];
  let current: z.ZodType | undefined = schema;
  for (const key of path) {
    while (current) {
      const def = defOf(current);
      const inner = def.type === "pipe" ? def.in : def.innerType;
      if (!inner || !["optional", "default", "nullable", "prefault", "pipe"].includes(def.type)) break;
      current = inner;
    }
    const def: SchemaDef | undefined = current && defOf(current);
    if (typeof key === "number" || /^\d+$/.test(String(key))) {
      labels.push(String(Number(key) + 1));
      current = def?.element ?? def?.items?.[Number(key)];
    } else {
      current = def?.shape?.[String(key)];
      const title = (current?.meta() as { title?: unknown } | undefined)?.title;
      labels.push(typeof title === "string" ? title : String(key));
    }
  }
  return labels.join(" › ") || "(entry)";
}

/** The data with every `{ src, alt }` image made the image the build made, or a pending one. */
function resolveImages(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolveImages);
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  if (typeof record.src === "string" && typeof record.alt === "string" && Object.keys(record).length === 2) {
    const built = builtImages[record.src];
    return built
      ? { ...built, alt: record.alt }
      : { src: `${PENDING_IMAGE_SCHEME}${record.src}`, alt: record.alt, ...PENDING_SIZE };
  }
  return Object.fromEntries(Object.entries(record).map(([key, inner]) => [key, resolveImages(inner)]));
}
