/**
 * Types and deletes the hero's rotating word with typed.js.
 *
 * Loaded with import() after hydration: typed.js and its set-up stay out of the page's
 * initial JavaScript.
 */
import Typed from "typed.js";

/** 100 ms per character, 700 ms before deleting: the original specification's values. */
const typingTimings = { typeSpeed: 100, backDelay: 700 } as const;

/** Types the words after the one already on screen, forever; returns a function that stops it. */
export function startTyping(element: HTMLElement, nextWords: readonly string[]): () => void {
  // typed.js treats the word already on screen as the first string and starts by deleting
  // it; when a loop ends it must type that word afresh instead.
  const typed: Typed = new Typed(element, {
    strings: [...nextWords],
    typeSpeed: typingTimings.typeSpeed,
    backSpeed: 50,
    backDelay: typingTimings.backDelay,
    startDelay: typingTimings.backDelay,
    loop: true,
    autoInsertCss: false,
    onLastStringBackspaced: () => {
      typed.strPos = 0;
    },
  });
  return () => typed.destroy();
}
