/**
 * What a content collection is: a folder (or one file) under `content/`, the format of its files
 * and the zod schema each must meet. The content build, `npm run check` and the `/admin` editor's
 * configuration all read collections through this one shape, so a field is declared once.
 *
 * Field metadata for the editor rides on the schema itself with zod's `.meta()`:
 * `title` (the field's label), `description` (its hint) and `widget` (Decap CMS's widget name when
 * it cannot be told from the type: "image", "markdown", "text", "datetime", "relation", …).
 */
import type { z } from "zod";

/** "markdown": YAML front matter and a Markdown body (the body is the `body` field); "yaml": YAML. */
export type ContentFormat = "markdown" | "yaml";

export interface ContentCollection<Schema extends z.ZodObject = z.ZodObject> {
  /** The folder or file name under `content/` (without extension), and the editor's collection name. */
  name: string;
  /** What the editor calls the collection. */
  label: string;
  /** What the editor calls one entry of a folder collection, in lower case after "New": "case study". */
  labelSingular?: string;
  /** `folder`: one file per entry in `content/<name>/`; `file`: one file, `content/<name>.yml`. */
  kind: "folder" | "file";
  format: ContentFormat;
  /** Every file of the collection (one entry, for a `file` collection) must meet it. */
  schema: Schema;
}

/** Declares a collection, keeping its schema's type for what the build makes of it. */
export function defineCollection<Schema extends z.ZodObject>(
  collection: ContentCollection<Schema>,
): ContentCollection<Schema> {
  return collection;
}
