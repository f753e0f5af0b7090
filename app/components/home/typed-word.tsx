/** The hero's rotating word, typed and deleted letter by letter (swapped whole under reduced motion). */
import { useEffect, useRef } from "react";
import { startTyping } from "~/components/home/typing-animation";
import { usePrefersReducedMotion } from "~/hooks/use-media-query";

/** Under reduced motion the word is swapped whole at this interval. */
export const wordSwapInterval = 2500;

/**
 * The hero's rotating word. Assistive technology reads the static first word; the animated
 * copy is hidden from it, so nobody hears letters being typed. Every word is stacked,
 * invisibly, in the same grid cell, so the headline never reflows as the word changes.
 * Paused, it shows the first word (WCAG 2.2.2: moving content can be stopped).
 */
export function TypedWord({ words, paused }: { words: readonly [string, ...string[]]; paused: boolean }) {
  const target = useRef<HTMLSpanElement>(null);
  const reducedMotion = usePrefersReducedMotion();

  useEffect(() => {
    const element = target.current;
    if (!element || reducedMotion === null || paused) return;
    const [first] = words;

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

    const stop = startTyping(element, words);
    return () => {
      stop();
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
