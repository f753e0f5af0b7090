/**
 * Makes the collections part of /admin's Decap CMS configuration from the content collections'
 * zod schemas (~/content/collections), so the editor asks for exactly the fields the build
 * validates: each field's widget from its type or its `.meta({ widget })`, its label and hint
 * from `.meta({ title, description })`, whether it is required, its length limits as a pattern.
 * The backend (GitHub or the local one) is added by the server at run time (server/admin/).
 */
import type { z } from "zod";
import type { ContentCollection } from "~/content/collections/collection";
import { SUMMARY_SEPARATOR } from "../../server/admin/browser/list-marks";

/**
 * Where uploads go in the repository, and how content files name them (`images/photo.jpg`): the
 * media library holds this folder only (the local editor's API refuses media elsewhere).
 */
export const MEDIA_FOLDER = "content/images";
/** Relative: a content file names its images `images/<file>`, as the content build expects. */
export const PUBLIC_FOLDER = "images";

export interface DecapField {
  name: string;
  label: string;
  widget: string;
  required?: false;
  hint?: string;
  pattern?: [string, string];
  options?: string[];
  field?: DecapField;
  fields?: DecapField[];
  value_type?: "int" | "float";
  min?: number;
  max?: number;
  date_format?: string;
  time_format?: boolean;
  format?: string;
}

export interface DecapCollection {
  name: string;
  label: string;
  label_singular?: string;
  summary?: string;
  folder?: string;
  create?: boolean;
  slug?: string;
  extension?: string;
  format?: string;
  files?: { name: string; label: string; file: string; fields: DecapField[] }[];
  fields?: DecapField[];
}

export interface DecapConfig {
  publish_mode: "editorial_workflow";
  media_folder: string;
  public_folder: string;
  collections: DecapCollection[];
}

interface Meta {
  title?: string;
  description?: string;
  widget?: string;
}

/** zod 4's own description of a schema: its kind and, for wrappers, what they wrap. */
interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  items?: z.ZodType[];
  entries?: Record<string, string>;
  shape?: Record<string, z.ZodType>;
  format?: string;
  in?: z.ZodType;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;
const metaOf = (schema: z.ZodType): Meta => (schema.meta() as Meta | undefined) ?? {};

/** The schema inside optional, default, nullable and pipe wrappers, whether it may be left out, and the metadata on any layer. */
function unwrap(schema: z.ZodType): { inner: z.ZodType; optional: boolean; meta: Meta } {
  let inner = schema;
  let optional = false;
  let meta: Meta = metaOf(schema);
  for (;;) {
    const def = defOf(inner);
    if (
      def.type === "optional" ||
      def.type === "default" ||
      def.type === "nullable" ||
      def.type === "prefault"
    ) {
      optional = true;
    } else if (def.type !== "pipe") {
      break;
    }
    const next = def.type === "pipe" ? def.in : def.innerType;
    if (!next) break;
    inner = next;
    meta = { ...metaOf(inner), ...meta };
  }
  return { inner, optional, meta };
}

/** A pattern for Decap from a string's length limits, so the editor refuses what the build would. */
function lengthPattern(schema: z.ZodType): [string, string] | undefined {
  const { minLength, maxLength } = schema as unknown as {
    minLength: number | null;
    maxLength: number | null;
  };
  if (maxLength == null && (minLength == null || minLength <= 1)) return undefined;
  const min = minLength ?? 0;
  const range = maxLength == null ? `{${min},}` : `{${min},${maxLength}}`;
  const message =
    maxLength == null
      ? `At least ${min} characters.`
      : min > 1
        ? `${min} to ${maxLength} characters.`
        : `At most ${maxLength} characters.`;
  return [`^[\\s\\S]${range}$`, message];
}

function fieldOf(name: string, schema: z.ZodType): DecapField {
  const { inner, optional, meta } = unwrap(schema);
  const def = defOf(inner);
  const field: DecapField = { name, label: meta.title ?? name, widget: "string" };
  if (optional) field.required = false;
  if (meta.description) field.hint = meta.description;
  switch (def.type) {
    case "string": {
      field.widget = meta.widget ?? (def.format === "date" ? "datetime" : "string");
      if (field.widget === "datetime") {
        Object.assign(field, { format: "YYYY-MM-DD", date_format: "YYYY-MM-DD", time_format: false });
      } else if (field.widget === "string" || field.widget === "text") {
        const pattern = lengthPattern(inner);
        if (pattern) field.pattern = pattern;
      }
      break;
    }
    case "number":
      field.widget = meta.widget ?? "number";
      field.value_type = (inner as unknown as { isInt?: boolean }).isInt ? "int" : "float";
      break;
    case "boolean":
      field.widget = meta.widget ?? "boolean";
      break;
    case "enum":
      field.widget = meta.widget ?? "select";
      field.options = Object.values(def.entries ?? {});
      break;
    case "array": {
      field.widget = meta.widget ?? "list";
      const element = def.element ? fieldOf("item", def.element) : undefined;
      if (element?.fields) field.fields = element.fields;
      else if (element) field.field = { ...element, label: meta.title ?? name };
      break;
    }
    case "tuple": {
      // A fixed number of values of one kind (three things a service includes): a list held to that length.
      const items = def.items ?? [];
      const [first] = items;
      if (!first) throw new Error(`the editor has no widget for field "${name}" (an empty zod tuple)`);
      field.widget = meta.widget ?? "list";
      field.field = { ...fieldOf("item", first), label: meta.title ?? name };
      field.min = items.length;
      field.max = items.length;
      break;
    }
    case "object":
      field.widget = meta.widget ?? "object";
      // Decap requires an optional object's required fields even when the editor leaves the
      // object empty, so none is required there; the build still refuses a half-filled one.
      field.fields = optional
        ? fieldsOf(inner as z.ZodObject).map(notRequired)
        : fieldsOf(inner as z.ZodObject);
      break;
    default:
      // A field of another zod type (a preprocessed one) says its widget itself.
      if (meta.widget) {
        field.widget = meta.widget;
        if (meta.widget === "datetime") {
          Object.assign(field, { format: "YYYY-MM-DD", date_format: "YYYY-MM-DD", time_format: false });
        }
        break;
      }
      throw new Error(
        `the editor has no widget for field "${name}" (a zod ${def.type}): give it .meta({ widget })`,
      );
  }
  return field;
}

/** A field and every field inside it, as not required. */
function notRequired(field: DecapField): DecapField {
  return {
    ...field,
    required: false,
    ...(field.fields ? { fields: field.fields.map(notRequired) } : {}),
  };
}

function fieldsOf(schema: z.ZodObject): DecapField[] {
  return Object.entries(schema.shape).map(([name, field]) => fieldOf(name, field as z.ZodType));
}

function collectionOf(collection: ContentCollection): DecapCollection {
  const fields = fieldsOf(collection.schema);
  const extension = collection.format === "markdown" ? "md" : "yml";
  if (collection.kind === "file") {
    return {
      name: collection.name,
      label: collection.label,
      files: [
        {
          name: collection.name,
          label: collection.label,
          file: `content/${collection.name}.${extension}`,
          fields,
        },
      ],
    };
  }
  return {
    name: collection.name,
    label: collection.label,
    ...(collection.labelSingular ? { label_singular: collection.labelSingular } : {}),
    ...summaryOf(collection),
    folder: `content/${collection.name}`,
    create: true,
    slug: "{{slug}}",
    extension,
    format: collection.format === "markdown" ? "frontmatter" : "yml",
    fields,
  };
}

/**
 * A page collection's list summary: the title, then `published` and `date` after an invisible
 * separator, which /admin's page script turns into marks ("Unpublished", "Scheduled for …"):
 * Decap's templates can neither compare dates nor tell an unset `published` from `false`.
 */
function summaryOf(collection: ContentCollection): { summary?: string } {
  const { shape } = collection.schema;
  if (!("title" in shape && "published" in shape && "date" in shape)) return {};
  return { summary: ["{{title}}", "{{published}}", "{{date}}"].join(SUMMARY_SEPARATOR) };
}

/** Decap's configuration for these collections, without its backend. */
export function decapConfigOf(collections: readonly ContentCollection[]): DecapConfig {
  return {
    publish_mode: "editorial_workflow",
    media_folder: MEDIA_FOLDER,
    public_folder: PUBLIC_FOLDER,
    collections: collections.map(collectionOf),
  };
}
