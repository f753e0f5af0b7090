/** The shape of a policy as pages show it: its front matter and its text as HTML, filled in. */
import type { PolicyName } from "~/content/entries";

export interface PolicySection {
  heading: string;
  /** The section's text, as HTML the content build made from Markdown (no raw HTML in it). */
  html: string;
}

export interface Policy {
  /** The route path, e.g. `/privacy-policy`. */
  path: `/${PolicyName}`;
  title: string;
  /** The meta description of the page. */
  summary: string;
  /** ISO date (YYYY-MM-DD) the text last changed. */
  updated: string;
  /** The text before the first section, as HTML. */
  intro: string;
  sections: readonly PolicySection[];
}
