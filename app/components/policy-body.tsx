/**
 * A policy's text set for reading (introduction, sections, links), for the policy pages and
 * dialogs.
 */
import type { Policy } from "~/content/policies/types";

export interface PolicyBodyProps {
  policy: Policy;
  /** Level of the section headings: 2 on a policy page, 3 inside a dialog titled by an h2. */
  headingLevel?: 2 | 3;
  /** Gives every section heading an id (see `policySectionId`) for in-page links. */
  anchors?: boolean;
  className?: string;
}

/** A policy's intro and sections, set for reading. Takes the text as data; imports none. */
export function PolicyBody({ policy, headingLevel = 2, anchors = false, className = "" }: PolicyBodyProps) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div className={`policy-text max-w-2xl text-base leading-relaxed sm:text-[1.0625rem] ${className}`}>
      <Html className="space-y-4 text-lg text-muted" html={policy.intro} />
      {policy.sections.map((section) => (
        <section key={section.heading} className="mt-10">
          <Heading
            id={anchors ? policySectionId(section.heading) : undefined}
            className="font-bold text-ink text-xl tracking-tight sm:text-2xl"
          >
            {section.heading}
          </Heading>
          <Html className="mt-3 space-y-4" html={section.html} />
        </section>
      ))}
    </div>
  );
}

/** The id a section heading gets with `anchors`: its words in kebab case. */
export function policySectionId(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function Html({ html, className }: { html: string; className: string }) {
  return (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: the build made this HTML from validated Markdown (no raw HTML), and the server filled its placeholders escaped
    <div className={className} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
