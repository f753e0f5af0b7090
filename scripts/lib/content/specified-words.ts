/**
 * Where content differs from the words the product specification quotes: every field whose
 * schema carries `quoted` metadata (~/content/collections/quoted) is read in every file of its
 * collection, and each difference is one line naming the file and the field.
 */
import type { z } from "zod";
import type { ContentCollection } from "~/content/collections/collection";
import { type CollectionName, collections } from "~/content/collections/index";
import type { Quoted } from "~/content/collections/quoted";
import type { LoadedContent } from "./load";

/** A field the specification quotes: its path (`hero.words`, `values[].title`) and what is fixed. */
interface QuotedField {
  path: string;
  quoted: Quoted;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  in?: z.ZodType;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;
const quotedOf = (schema: z.ZodType) => (schema.meta() as { quoted?: Quoted } | undefined)?.quoted;

/** Every quoted field of a schema, through optional, default and pipe wrappers, objects and lists. */
function quotedFields(schema: z.ZodType, path = ""): QuotedField[] {
  const found: QuotedField[] = [];
  let inner: z.ZodType | undefined = schema;
  let quoted = quotedOf(schema);
  for (;;) {
    const def: Def = defOf(inner);
    const next: z.ZodType | undefined = def.type === "pipe" ? def.in : def.innerType;
    if (!["optional", "default", "nullable", "prefault", "pipe"].includes(def.type) || !next) break;
    inner = next;
    quoted ??= quotedOf(inner);
  }
  if (quoted) found.push({ path, quoted });
  const def = defOf(inner);
  if (def.type === "object" && def.shape) {
    for (const [key, field] of Object.entries(def.shape)) {
      found.push(...quotedFields(field, path ? `${path}.${key}` : key));
    }
  } else if (def.type === "array" && def.element) {
    found.push(...quotedFields(def.element, `${path}[]`));
  }
  return found;
}

/** The values at `path` in `data`, a `[]` step taking every item of a list. */
function valuesAt(data: unknown, path: string): unknown[] {
  let values = [data];
  for (const step of path.split(".")) {
    const list = step.endsWith("[]");
    const key = list ? step.slice(0, -2) : step;
    values = values.flatMap((value) => {
      const item = key === "" ? value : (value as Record<string, unknown> | undefined)?.[key];
      return list ? (Array.isArray(item) ? item : []) : [item];
    });
  }
  return values;
}

const quote = (texts: readonly unknown[]) => texts.map((text) => `“${String(text)}”`).join(", ");

/** One line for each field of `content` whose words are not the specification's. */
export function specificationDifferences(content: LoadedContent): string[] {
  const lines: string[] = [];
  for (const [name, collection] of Object.entries(collections) as [CollectionName, ContentCollection][]) {
    const entries = content[name];
    for (const { path, quoted } of quotedFields(collection.schema)) {
      if (quoted.kind === "among") {
        const found = entries.flatMap((entry) => valuesAt(entry.data, path));
        const missing = quoted.names.filter((name) => !found.includes(name));
        if (missing.length > 0) {
          const where = collection.kind === "folder" ? `content/${name}/*` : (entries[0]?.file ?? name);
          lines.push(
            `${where}: ${path}: the specification names ${quote(missing)}, which ${missing.length === 1 ? "is" : "are"} missing (found ${quote(found)})`,
          );
        }
        continue;
      }
      for (const entry of entries) {
        for (const value of valuesAt(entry.data, path)) {
          const problem = differenceOf(value, quoted);
          if (problem) lines.push(`${entry.file}: ${path}: ${problem}`);
        }
      }
    }
  }
  return lines;
}

/** What is wrong with one value, or nothing. */
function differenceOf(value: unknown, quoted: Exclude<Quoted, { kind: "among" }>): string | undefined {
  switch (quoted.kind) {
    case "text":
      return value === quoted.text
        ? undefined
        : `is ${quote([value])}; the specification says ${quote([quoted.text])}`;
    case "list": {
      const list = Array.isArray(value) ? value : [];
      return list.length === quoted.words.length && list.every((word, index) => word === quoted.words[index])
        ? undefined
        : `is ${quote(list)}; the specification says ${quote(quoted.words)}, in this order`;
    }
    case "contains": {
      const missing = quoted.phrases.filter((phrase) => !String(value).includes(phrase));
      return missing.length === 0
        ? undefined
        : `does not say ${quote(missing)}, which the specification asks for`;
    }
    case "avoids": {
      const said = quoted.words.filter((word) => String(value).toLowerCase().includes(word.toLowerCase()));
      return said.length === 0 ? undefined : `says ${quote(said)}: ${quoted.why}`;
    }
  }
}
