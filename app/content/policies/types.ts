/** The shape of a policy's text: the page, its sections, and their blocks with inline links. */
/**
 * One block of a policy: a paragraph, or a bulleted list. Text may carry inline links written
 * `[label](href)`, where href is a path on this site, a `mailto:` or a `tel:` address.
 */
export type PolicyBlock = { kind: "paragraph"; text: string } | { kind: "list"; items: readonly string[] };

export interface PolicySection {
  heading: string;
  blocks: readonly PolicyBlock[];
}

export interface Policy {
  /** The route path, e.g. `/privacy-policy`. */
  path: "/terms-conditions" | "/privacy-policy" | "/cookie-policy";
  title: string;
  /** The meta description of the page. */
  summary: string;
  /** ISO date (YYYY-MM-DD) the text last changed. */
  updated: string;
  intro: readonly PolicyBlock[];
  sections: readonly PolicySection[];
}
