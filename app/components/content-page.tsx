/** What every case study and article page shares: the breadcrumb trail, the Markdown body and the closing call to enquire. */
import type { Crumb } from "~/content/page-json-ld";
import { pageWords } from "~/content/page-words";

/** The trail from the home page to this page; the last crumb is the page itself. */
export function Breadcrumbs({ trail }: { trail: readonly Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="text-muted text-sm">
      <ol className="flex flex-wrap gap-2">
        {trail.map((crumb, index) => (
          <li key={crumb.path} className="flex gap-2">
            {index > 0 && <span aria-hidden="true">/</span>}
            {index === trail.length - 1 ? (
              <span aria-current="page">{crumb.name}</span>
            ) : (
              <a href={crumb.path} className="underline-offset-4 hover:underline">
                {crumb.name}
              </a>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** A body the content build made from Markdown (validated: no raw HTML, only the site's own links). */
export function ContentBody({ html, lang }: { html: string; lang?: string }) {
  return (
    <div
      className={`content-body${lang === "hi" ? " content-devanagari" : ""}`}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the build made this HTML from validated Markdown, refusing raw HTML
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

/** The call to enquire that ends every article and case study, leading to the form. */
export function EnquireCall({ heading, text }: { heading: string; text: string }) {
  return (
    <aside aria-labelledby="enquire-heading" className="mt-16 rounded-3xl bg-ink p-8 text-white sm:p-10">
      <h2 id="enquire-heading" className="font-bold text-2xl tracking-tight">
        {heading}
      </h2>
      <p className="mt-3 max-w-2xl text-white/80">{text}</p>
      <a
        href="/#contact"
        className="mt-6 inline-flex rounded-full bg-primary px-6 py-3 font-semibold text-white hover:bg-primary-dark"
      >
        {pageWords.enquire}
      </a>
    </aside>
  );
}

/** A date as the page shows it (`12 March 2026`), the same on every server. */
export function formatDate(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString("en-IN", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}
