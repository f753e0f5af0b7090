/**
 * The success notice's reference line as HTML, made on the server from the content's words: the
 * page's script renders it as it is, so neither its words nor its markup weigh on the home page's
 * bundle (tests/browser/budgets.spec.ts).
 */
import { WITHDRAWAL_PATH, withdrawalHint } from "~/content/withdrawal";
import { REFERENCE } from "~/lead-parts/reference";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The content's words (`Your reference:`, content/enquiry-form.yml), the reference in a `<strong>`
 * one click selects, and the line on how to withdraw with it; null for anything that is not a
 * reference.
 */
export function referenceLineHtml(reference: string, words: string): string | null {
  if (!REFERENCE.test(reference)) return null;
  const { before, label, after } = withdrawalHint;
  return `${escapeHtml(words)} <strong class="select-all font-mono font-semibold">${escapeHtml(reference)}</strong> <span class="mt-1 block text-muted text-sm">${escapeHtml(before)}<a href="${WITHDRAWAL_PATH}" class="font-medium text-primary-dark underline underline-offset-2">${escapeHtml(label)}</a>${escapeHtml(after)}</span>`;
}
