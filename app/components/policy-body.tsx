/**
 * A policy's text set for reading (introduction, sections, inline links), for the policy pages and
 * dialogs.
 */
import type { ReactNode } from "react";
import type { Policy, PolicyBlock } from "~/content/policies/types";

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
    <div className={`max-w-2xl text-base leading-relaxed sm:text-[1.0625rem] ${className}`}>
      <div className="space-y-4 text-lg text-muted">{policy.intro.map(renderBlock)}</div>
      {policy.sections.map((section) => (
        <section key={section.heading} className="mt-10">
          <Heading
            id={anchors ? policySectionId(section.heading) : undefined}
            className="font-bold text-ink text-xl tracking-tight sm:text-2xl"
          >
            {section.heading}
          </Heading>
          <div className="mt-3 space-y-4">{section.blocks.map(renderBlock)}</div>
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

function renderBlock(block: PolicyBlock, index: number) {
  if (block.kind === "paragraph") return <p key={index}>{renderInline(block.text)}</p>;
  return (
    <ul key={index} className="list-disc space-y-2 pl-6 marker:text-primary">
      {block.items.map((item) => (
        <li key={item} className="pl-1">
          {renderInline(item)}
        </li>
      ))}
    </ul>
  );
}

const inlineLink = /\[([^\]]+)\]\(((?:\/|mailto:|tel:)[^)\s]*)\)/g;

/** Text with `[label](href)` links; plain anchors, so a link inside a dialog leaves it too. */
function renderInline(text: string): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(inlineLink)) {
    const [whole, label, href] = match;
    if (match.index > last) nodes.push(text.slice(last, match.index));
    nodes.push(
      <a
        key={match.index}
        href={href}
        className="font-medium text-primary-dark underline decoration-primary/40 underline-offset-2 hover:decoration-primary-dark"
      >
        {label}
      </a>,
    );
    last = match.index + whole.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}
