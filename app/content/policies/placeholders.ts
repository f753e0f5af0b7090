/**
 * The placeholders a policy's Markdown may hold (content/*-policy.md, content/terms-conditions.md)
 * and how the server fills them: `{{email}}` and the like stand for a fact the site knows, and a
 * paragraph or list item that opens with `{{if whatsapp}}` shows only when that condition holds.
 * The content build refuses any other (scripts/lib/content/policy-rules.ts).
 */

/** Facts that read as words; in HTML they are escaped, in a summary they are the words. */
export const TEXT_PLACEHOLDERS = [
  "name",
  "short-name",
  "city",
  "region",
  "country",
  "address",
  "founding-year",
  "whatsapp",
  "retention-days",
  "spam-retention-days",
  "privacy-contact-name",
] as const;

/** Facts that are links in a policy's text (a summary, which is plain text, has the address alone). */
export const LINK_PLACEHOLDERS = ["email", "phone", "privacy-contact-email"] as const;

export const CONDITIONS = ["whatsapp", "privacy-contact-named", "privacy-contact-unnamed"] as const;

/** What the privacy policy must say, because the server's settings decide it. */
export const REQUIRED_IN_PRIVACY_POLICY = [
  "retention-days",
  "spam-retention-days",
  "privacy-contact-email",
] as const;

export type TextPlaceholder = (typeof TEXT_PLACEHOLDERS)[number];
export type LinkPlaceholder = (typeof LINK_PLACEHOLDERS)[number];
export type Condition = (typeof CONDITIONS)[number];

/** The facts a policy is filled with. */
export interface PolicyFacts {
  text: Record<TextPlaceholder, string>;
  links: Record<LinkPlaceholder, { label: string; href: string }>;
  conditions: Record<Condition, boolean>;
}

/** `{{name}}`, `{{if whatsapp}}`: any placeholder in a text, for the build's check. */
export const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * A policy's HTML (made by the content build) with its conditional paragraphs and list items
 * kept or dropped, and its placeholders filled, escaped.
 */
export function fillPolicyHtml(html: string, facts: PolicyFacts): string {
  return html
    .replace(
      /<(p|li)>\{\{if ([a-z-]+)\}\}\s*([\s\S]*?)<\/\1>\n?/g,
      (_, tag: string, condition: Condition, inner: string) =>
        facts.conditions[condition] ? `<${tag}>${inner}</${tag}>\n` : "",
    )
    .replace(PLACEHOLDER, (whole, name: string) => {
      if (name in facts.links) {
        const link = facts.links[name as LinkPlaceholder];
        return `<a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>`;
      }
      return name in facts.text ? escapeHtml(facts.text[name as TextPlaceholder]) : whole;
    });
}

/** A plain text (a title, a summary) with its placeholders filled; links are their labels. */
export function fillPolicyText(text: string, facts: PolicyFacts): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    if (name in facts.links) return facts.links[name as LinkPlaceholder].label;
    return name in facts.text ? facts.text[name as TextPlaceholder] : whole;
  });
}
