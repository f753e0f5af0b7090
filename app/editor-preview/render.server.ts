/**
 * /admin's previews as the site's server renders them (docs/decisions/049-previews-rendered-by-the-site.md):
 * an entry posted for a collection becomes the document its preview frame shows. Exported by
 * the server build's entry (app/entry.server.tsx), so server/admin/preview.ts renders with the
 * very components and stylesheet the pages are built with.
 */
import type { z } from "zod";
import type { ContentCollection } from "~/content/collections/collection";
import { type CollectionName, collections } from "~/content/collections/index";
import { type PreviewRow, previewedCollections, previewRows } from "./collections.server";
import { faultsDocument, previewDocument } from "./document.server";
import { type PreviewFault, prepareEntry } from "./entry.server";

export interface EditorPreviewOptions {
  /** The site's face shown at once, as a page shows it (/admin's own stylesheet, after the site's). */
  fontStylesheet: string;
  /** The stylesheet of the Devanagari font for previews (/admin's own: the whole font, shown at once). */
  hindiStylesheet: string;
}

export type EditorPreviewAnswer =
  | { status: "page"; html: string }
  | { status: "faults"; html: string; faults: PreviewFault[] }
  | { status: "no preview" };

export interface EditorPreview {
  /** The collections with a preview. */
  collections: readonly string[];
  render: (
    collection: string,
    posted: unknown,
    options: EditorPreviewOptions,
  ) => Promise<EditorPreviewAnswer>;
}

const isPreviewed = (name: string): name is CollectionName => previewedCollections.includes(name);

async function render(
  name: string,
  posted: unknown,
  options: EditorPreviewOptions,
): Promise<EditorPreviewAnswer> {
  if (!isPreviewed(name)) return { status: "no preview" };
  // The row and the collection share one name, so one schema: the casts only forget which.
  const collection = collections[name] as ContentCollection<z.ZodObject>;
  const row = previewRows[name] as PreviewRow<unknown> | undefined;
  if (!row) return { status: "no preview" };
  const prepared = await prepareEntry(collection, posted);
  if (!prepared.ok) {
    const html = faultsDocument(prepared.faults, [options.fontStylesheet]);
    return { status: "faults", html, faults: prepared.faults };
  }
  const { entry } = prepared;
  const html = previewDocument(row.render(entry), {
    scripted: row.scripted,
    stylesheets: [options.fontStylesheet, ...(row.hindi?.(entry) ? [options.hindiStylesheet] : [])],
  });
  return { status: "page", html };
}

export const editorPreview: EditorPreview = { collections: previewedCollections, render };
