/**
 * Marks the entries of /admin's lists that visitors do not see: unpublished ones, and scheduled
 * ones (dated after today, which the site leaves out until their day). Decap's summary template
 * cannot compare dates, nor tell an unset `published` from `false`, so each page collection's
 * summary carries both, after an invisible separator (scripts/admin/decap-config.ts), and this
 * rewrites every such text into the title and its marks.
 */

/** U+2063 INVISIBLE SEPARATOR: between a summary's title, `published` and `date`. */
export const SUMMARY_SEPARATOR = "\u2063";

const words = {
  unpublished: "Unpublished",
  scheduled: (day: string) => `Scheduled for ${day}`,
};

/** `2027-01-15` as `15 January 2027`, as the pages write dates. */
const dayOf = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString("en-IN", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });

/** A summary's text with its marks: `Title · Unpublished · Scheduled for 15 January 2027`. */
export function markedSummary(summary: string, today: string): string {
  const [title = "", published = "", date = ""] = summary.split(SUMMARY_SEPARATOR);
  const marks = [];
  if (published === "false") marks.push(words.unpublished);
  if (/^\d{4}-\d{2}-\d{2}$/.test(date) && date > today) marks.push(words.scheduled(dayOf(date)));
  return [title, ...marks].join(" · ");
}

/** Today as the site's dates are written, `YYYY-MM-DD`, in UTC as the build tells. */
const today = () => new Date().toISOString().slice(0, 10);

function markWithin(root: Node): void {
  const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let text = texts.currentNode; text; text = texts.nextNode() as Node) {
    if (text.nodeType === Node.TEXT_NODE && text.nodeValue?.includes(SUMMARY_SEPARATOR)) {
      // Decap (React) sets this text again when the summary changes; the observer marks it again.
      text.nodeValue = markedSummary(text.nodeValue, today());
    }
  }
}

/** Marks every summary in the page now and whenever Decap renders one. */
export function markListEntries(): void {
  const observer = new MutationObserver((changes) => {
    for (const change of changes) {
      if (change.type === "characterData") markWithin(change.target);
      else for (const node of change.addedNodes) markWithin(node);
    }
  });
  observer.observe(document.body, { childList: true, characterData: true, subtree: true });
  markWithin(document.body);
}
