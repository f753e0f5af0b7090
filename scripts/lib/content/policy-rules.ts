/**
 * What the build refuses in a policy's Markdown (its parts: ~/content/policies/parts): other headings, placeholders the site
 * does not know (~/content/policies/placeholders), a condition anywhere but at the start of a
 * paragraph or list item, and a privacy policy that leaves out what the server's settings decide.
 */

import type { MarkdownFault } from "~/content/markdown.server";
import {
  CONDITIONS,
  LINK_PLACEHOLDERS,
  PLACEHOLDER,
  REQUIRED_IN_PRIVACY_POLICY,
  TEXT_PLACEHOLDERS,
} from "~/content/policies/placeholders";

const known = new Set<string>([...TEXT_PLACEHOLDERS, ...LINK_PLACEHOLDERS]);
const conditions = new Set<string>(CONDITIONS);
const listing = (names: readonly string[]) => names.map((name) => `{{${name}}}`).join(", ");

/**
 * What is wrong with a policy: `body` its Markdown (lines from 1), `html` what the build made of
 * it, `privacy` whether it is the privacy policy.
 */
export function policyFaults(body: string, html: string, privacy: boolean): MarkdownFault[] {
  const faults: MarkdownFault[] = [];
  const lines = body.split("\n");
  const lineOf = (text: string) => lines.findIndex((line) => line.includes(text)) + 1 || 1;
  let fenced = false;
  for (const [index, line] of lines.entries()) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (!fenced && /^ {0,3}#{1,6}(\s|$)/.test(line) && !/^## \S/.test(line)) {
      faults.push({
        line: index + 1,
        message: "a policy's headings are its sections' (## Heading): no other level",
      });
    }
  }
  if (!/<h2>/.test(html)) faults.push({ line: 1, message: "has no section: start each with ## Heading" });
  for (const match of body.matchAll(PLACEHOLDER)) {
    const [whole, inside = ""] = match;
    const condition = /^if\s+(.*)$/.exec(inside)?.[1];
    if (condition !== undefined) {
      if (!conditions.has(condition)) {
        faults.push({
          line: lineOf(whole),
          message: `${whole} is no condition the site knows: use ${CONDITIONS.map((name) => `{{if ${name}}}`).join(", ")}`,
        });
      }
    } else if (!known.has(inside)) {
      faults.push({
        line: lineOf(whole),
        message: `${whole} is no placeholder the site knows: use ${listing([...TEXT_PLACEHOLDERS, ...LINK_PLACEHOLDERS])}`,
      });
    }
  }
  // A condition opens a paragraph or a list item, as the server drops it (fillPolicyHtml).
  const outsideConditions = html.replace(/<(p|li)>\{\{if [a-z-]+\}\}/g, "");
  for (const match of outsideConditions.matchAll(/\{\{\s*if\b[^}]*\}\}/g)) {
    faults.push({
      line: lineOf(match[0]),
      message: `${match[0]} must open a paragraph or a list item, as {{if whatsapp}} Text…`,
    });
  }
  for (const element of html.matchAll(/<(p|li)>([\s\S]*?)<\/\1>/g)) {
    const inner = element[2] ?? "";
    if (inner.includes("{{privacy-contact-name}}") && !inner.startsWith("{{if privacy-contact-named}}")) {
      faults.push({
        line: lineOf("{{privacy-contact-name}}"),
        message:
          "{{privacy-contact-name}} is known only when PRIVACY_CONTACT names a person: open its paragraph with {{if privacy-contact-named}}",
      });
    }
  }
  if (privacy) {
    for (const name of REQUIRED_IN_PRIVACY_POLICY) {
      if (!body.includes(`{{${name}}}`)) {
        faults.push({
          line: 1,
          message: `must say {{${name}}}: the server's settings decide it, and the privacy notice beside the form says the same`,
        });
      }
    }
  }
  return faults;
}

/** What is wrong with the placeholders of a policy's title or summary (plain text: no conditions). */
export function plainTextFaults(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)]
    .filter(([, inside = ""]) => !known.has(inside))
    .map(
      ([whole]) =>
        `${whole} is no placeholder the site knows here: use ${listing([...TEXT_PLACEHOLDERS, ...LINK_PLACEHOLDERS])}`,
    );
}
