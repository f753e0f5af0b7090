import { expect, type Page } from "@playwright/test";

/**
 * axe runs inside the page, which a JavaScript-disabled browser refuses to do. For the no-JS
 * case the page keeps its script engine but gets the no-JS document: the server's HTML with
 * every script (and module preload) removed and `<noscript>` content made live, under the same
 * CSP and stylesheet. `expectSameAsWithoutJavaScript` checks that this is what a browser
 * without JavaScript shows.
 */
export function withoutScripts(html: string): string {
  return html
    .replace(/<script\b[\s\S]*?<\/script>/gi, "")
    .replace(/<link rel="modulepreload"[^>]*>/gi, "")
    .replace(/<\/?noscript>/gi, "");
}

/** Serves every document `page` opens (not its assets) through `withoutScripts`. */
export async function serveWithoutScripts(page: Page): Promise<void> {
  await page.route(
    (url) => !url.pathname.startsWith("/build/") && !/\.[a-z0-9]+$/i.test(url.pathname),
    async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: withoutScripts(await response.text()) });
    },
  );
}

/**
 * Runs in the page: the document as markup with its scripts left out, `<noscript>` content in
 * place of the element (a browser without JavaScript parses that content as elements), and no
 * comments. React's stream markers follow `</html>`: where the parser puts them depends on
 * whether a script comes after them, and they render nothing.
 */
function markupWithoutScripts(): string {
  const copy = document.documentElement.cloneNode(true) as HTMLElement;
  for (const script of copy.querySelectorAll("script")) script.remove();
  for (const noscript of copy.querySelectorAll("noscript")) noscript.replaceWith(...noscript.childNodes);
  const comments = document.createTreeWalker(copy, NodeFilter.SHOW_COMMENT);
  const found: Node[] = [];
  while (comments.nextNode()) found.push(comments.currentNode);
  for (const comment of found) comment.parentNode?.removeChild(comment);
  return copy.outerHTML;
}

/** Where `a` and `b` first differ, with some markup around it; "" when they are equal. */
function firstDifference(a: string, b: string): string {
  if (a === b) return "";
  let at = 0;
  while (a[at] === b[at]) at++;
  const around = (text: string) => text.slice(Math.max(0, at - 120), at + 120);
  return `at character ${at}:\n${around(a)}\n---\n${around(b)}`;
}

/**
 * Asserts that `page`, opened through `serveWithoutScripts`, shows what a browser context with
 * JavaScript disabled shows at the same address and size: the same document (scripts aside)
 * and the same accessibility tree. Call it before anything changes the page (axe, scrolling
 * does not).
 */
export async function expectSameAsWithoutJavaScript(page: Page): Promise<void> {
  const browser = page.context().browser();
  if (!browser) throw new Error("the page has no browser to open a context without JavaScript in");
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: page.viewportSize(),
    reducedMotion: "no-preference",
  });
  try {
    const plain = await context.newPage();
    await plain.goto(page.url());
    const difference = firstDifference(
      await page.evaluate(markupWithoutScripts),
      await plain.evaluate(markupWithoutScripts),
    );
    expect(
      difference,
      "the document without scripts, where it differs (rewritten / without JavaScript)",
    ).toBe("");
    expect(await page.locator("body").ariaSnapshot(), "the accessibility tree without scripts").toBe(
      await plain.locator("body").ariaSnapshot(),
    );
  } finally {
    await context.close();
  }
}
