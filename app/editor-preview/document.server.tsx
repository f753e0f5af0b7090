/**
 * The document /admin's preview frame shows: a page's own components in the site's layout and
 * stylesheet, with no script and nothing else of the page around them.
 */
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import stylesheet from "~/styles/app.css";
import type { PreviewFault } from "./entry.server";

export interface PreviewDocumentOptions {
  /**
   * Whether the page this shows sends its script (the home page): the document is then marked as
   * a scripted page is once painted (`js painted`), so the stylesheet lays it out as visitors with
   * JavaScript see it. Pages without a bundle (case studies, articles, policies) are never marked.
   */
  scripted: boolean;
  /** More stylesheets after the site's (its face shown at once, the Devanagari font's for Hindi). */
  stylesheets: readonly string[];
}

/** A whole document around `main`, as a string: what the preview's frame is given. */
export function previewDocument(main: ReactNode, { scripted, stylesheets }: PreviewDocumentOptions): string {
  return `<!doctype html>${renderToStaticMarkup(
    <html lang="en" className={scripted ? "js painted" : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Preview</title>
        {[stylesheet, ...stylesheets].map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {/* A link followed in the preview opens the site in a tab of its own, never in the frame. */}
        <base target="_blank" />
      </head>
      <body className="flex min-h-dvh flex-col">
        <main id="main" className="flex-1">
          {main}
        </main>
      </body>
    </html>,
  )}`;
}

/** What the preview shows while the entry cannot be a page yet: each field to fill in or fix, as the build names it. */
export function faultsDocument(faults: readonly PreviewFault[], stylesheets: readonly string[]): string {
  return previewDocument(
    <section aria-labelledby="preview-faults" className="mx-auto grid max-w-3xl gap-4 px-6 py-12">
      <h1 id="preview-faults" className="font-bold text-2xl">
        The page shows once these fields are filled in
      </h1>
      <ul className="grid gap-2 text-muted">
        {faults.map((fault) => (
          <li key={`${fault.field} ${fault.message}`}>
            <span className="font-semibold text-ink">{fault.field}</span>: {fault.message}
          </li>
        ))}
      </ul>
    </section>,
    { scripted: false, stylesheets },
  );
}
