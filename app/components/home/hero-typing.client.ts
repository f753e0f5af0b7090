/**
 * Types and deletes the hero's rotating word with typed.js 2.1 (MIT), loaded with import() once
 * the page has hydrated (docs/decisions/027-typed-js.md).
 */
import Typed from "typed.js";

/** The specification's typing figures, as typed.js options: 100 ms a letter, 700 ms at rest, forever. */
export const typedOptions = { typeSpeed: 100, backDelay: 700, loop: true } as const;

/**
 * Rests on the first word (the one on screen), then deletes it and types the next, forever,
 * with typed.js's cursor (`span.typed-cursor`, `aria-hidden`) blinking while a word rests.
 * Returns a function that stops it, leaving the element empty and the cursor gone.
 */
export function startTyping(element: HTMLElement, words: readonly string[]): () => void {
  const [, ...next] = words;
  const typed: Typed = new Typed(element, {
    ...typedOptions,
    // typed.js takes the word already in the element as its first string and starts by
    // deleting it: the first word rests as long as every other before it goes.
    strings: next,
    startDelay: typedOptions.backDelay,
    backSpeed: 50,
    // Plain text (textContent), not HTML (innerHTML): the words are copy, never markup.
    contentType: "null",
    // typed.js would append a <style> for the cursor, which the CSP refuses: app.css styles it.
    autoInsertCss: false,
    // At the end of a loop typed.js would begin again by deleting the first word from the
    // letter it stood at when created, though nothing is on screen: it types it afresh instead.
    onLastStringBackspaced: () => {
      typed.strPos = 0;
    },
  });
  return () => typed.destroy();
}
