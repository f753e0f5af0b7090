/**
 * A policy's HTML as the site shows it: its text before the first `##` heading, then one section
 * per heading. The content build splits each policy so (scripts/lib/content/generate.ts), and
 * /admin's preview the entry being edited.
 */

/** The policy's HTML in parts: the introduction, and each `##` section's heading and HTML. */
export interface PolicyParts {
  intro: string;
  sections: { heading: string; html: string }[];
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** A heading's HTML as text: its tags dropped, its character references decoded. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith("#x") || name.startsWith("#X"))
        return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
      return entities[name] ?? whole;
    })
    .trim();
}

/** Splits the HTML the content build made of a policy at its `<h2>` headings. */
export function policyParts(html: string): PolicyParts {
  const [intro = "", ...rest] = html.split(/<h2>([\s\S]*?)<\/h2>\n?/);
  const sections: PolicyParts["sections"] = [];
  for (let index = 0; index + 1 < rest.length; index += 2) {
    sections.push({ heading: textOf(rest[index] ?? ""), html: (rest[index + 1] ?? "").trim() });
  }
  return { intro: intro.trim(), sections };
}
