/**
 * Markdown to HTML, for the content build and for /admin's previews alike (one pipeline, so a
 * preview's body is the page's): GitHub-flavoured Markdown, code highlighted with classes only
 * (the CSP allows no inline style) in blocks a keyboard can scroll, and the faults an editor must
 * fix before it becomes a page: raw HTML, images in the body, links (inline or by reference) to
 * pages that do not exist or to other schemes than https:, mailto: and tel:.
 */
import { type ContentLanguage, codeBlockLabel } from "~/content/assistive-text";

export interface MarkdownFault {
  /** Line in the Markdown body, from 1. */
  line: number;
  message: string;
}

export interface RenderedMarkdown {
  html: string;
  /** The words a reader reads (text and code), for the reading time. */
  words: number;
  /** Site paths the body links to (`/insights/x`, `/#contact`), with the line of each. */
  links: { path: string; line: number }[];
  faults: MarkdownFault[];
}

interface MdNode {
  type: string;
  value?: string;
  url?: string;
  position?: { start: { line: number } };
  children?: MdNode[];
}

interface HastNode {
  type: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

/**
 * The parser and the HTML maker, loaded on first use: the server renders Markdown only for
 * /admin's previews, and loading the six packages (highlight.js's languages among them) costs
 * half a second and 35 MB that a server whose editor never previews should not pay at start.
 */
const pipeline = async () => {
  const [rehypeHighlight, rehypeStringify, remarkGfm, remarkParse, remarkRehype, { unified }] =
    await Promise.all([
      import("rehype-highlight"),
      import("rehype-stringify"),
      import("remark-gfm"),
      import("remark-parse"),
      import("remark-rehype"),
      import("unified"),
    ]);
  return {
    parser: unified().use(remarkParse.default).use(remarkGfm.default),
    toHtml: unified()
      .use(remarkRehype.default)
      .use(rehypeHighlight.default, { detect: false })
      .use(rehypeStringify.default),
  };
};
let loaded: ReturnType<typeof pipeline> | undefined;

/**
 * Gives every code block keyboard focus and a name: a long line scrolls sideways, which a
 * keyboard can do only in a focusable element (axe's scrollable-region-focusable). The name
 * needs a role that may carry one; a group, unlike a region, is no landmark to list.
 */
function labelCodeBlocks(node: HastNode, label: string): void {
  if (node.type === "element" && node.tagName === "pre") {
    node.properties = { ...node.properties, tabIndex: 0, role: "group", ariaLabel: label };
  }
  for (const child of node.children ?? []) labelCodeBlocks(child, label);
}

/** Renders one Markdown body, in `lang`. Lines are counted from the body's first line. */
export async function renderMarkdown(body: string, lang: ContentLanguage = "en"): Promise<RenderedMarkdown> {
  loaded ??= pipeline();
  const { parser, toHtml } = await loaded;
  const tree = parser.parse(body) as MdNode;
  const faults: MarkdownFault[] = [];
  const links: RenderedMarkdown["links"] = [];
  let words = 0;
  const visit = (node: MdNode) => {
    const line = node.position?.start.line ?? 1;
    if (node.type === "html") {
      faults.push({ line, message: `raw HTML is not allowed (${(node.value ?? "").trim().slice(0, 40)})` });
    } else if (node.type === "image" || node.type === "imageReference") {
      faults.push({ line, message: "images go in the file's images field, not in the body" });
    } else if ((node.type === "link" || node.type === "definition") && node.url) {
      // A definition (`[j]: url`) is where a reference link (`[text][j]`) takes its address from.
      if (node.url.startsWith("/")) links.push({ path: node.url, line });
      else if (!/^(?:https?:|mailto:|tel:|#)/.test(node.url)) {
        faults.push({ line, message: `link "${node.url}" must start with / (this site) or https:` });
      }
    }
    if ((node.type === "text" || node.type === "code" || node.type === "inlineCode") && node.value) {
      words += node.value.split(/\s+/).filter(Boolean).length;
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(tree);
  if (faults.length > 0) return { html: "", words, links, faults };
  const hast = toHtml.runSync(tree as Parameters<typeof toHtml.runSync>[0]);
  labelCodeBlocks(hast as HastNode, codeBlockLabel[lang]);
  const html = String(toHtml.stringify(hast));
  return { html, words, links, faults };
}
