/** The hero's rotating word, typed and deleted letter by letter by typed.js (swapped whole under reduced motion). */
import { useEffect, useRef } from "react";
import { usePrefersReducedMotion } from "~/hooks/use-media-query";

/** Under reduced motion the word is swapped whole at this interval. */
export const wordSwapInterval = 2500;

/**
 * The hero's rotating word. Assistive technology reads the static first word; the animated
 * copy is hidden from it, so nobody hears letters being typed. Every word is stacked,
 * invisibly, in the same grid cell, so the headline never reflows as the word changes.
 * Paused, it shows the first word (WCAG 2.2.2: moving content can be stopped). typed.js is
 * fetched with import() only when it is to type: never without JavaScript, paused or under
 * reduced motion (docs/decisions/027-typed-js.md).
 */
export function TypedWord({ words, paused }: { words: readonly string[]; paused: boolean }) {
  const target = useRef<HTMLSpanElement>(null);
  const reducedMotion = usePrefersReducedMotion();

  useEffect(() => {
    const element = target.current;
    if (!element || reducedMotion === null || paused) return;
    const [first = ""] = words;

    if (reducedMotion) {
      let index = 0;
      const timer = window.setInterval(() => {
        index = (index + 1) % words.length;
        element.textContent = words[index] ?? first;
      }, wordSwapInterval);
      return () => {
        window.clearInterval(timer);
        element.textContent = first;
      };
    }

    // Paused, typed.js is destroyed rather than stopped: its stop() leaves a part of a word on
    // screen and the cursor blinking, and the pause must stop all motion and show the word.
    let cancelled = false;
    let destroy: (() => void) | undefined;
    import("~/components/home/hero-typing.client").then(({ startTyping }) => {
      if (!cancelled) destroy = startTyping(element, words);
    });
    return () => {
      cancelled = true;
      destroy?.();
      element.textContent = first;
    };
  }, [reducedMotion, words, paused]);

  return (
    <>
      <span className="sr-only">{words[0]}</span>
      <span aria-hidden="true" className="inline-grid whitespace-nowrap text-primary" data-typed-word="">
        {words.map((word) => (
          <span key={word} className="invisible col-start-1 row-start-1 pr-[0.35em]">
            {word}
          </span>
        ))}
        <span className="col-start-1 row-start-1">
          <span ref={target} data-typed-target="">
            {words[0]}
          </span>
        </span>
      </span>
    </>
  );
}
