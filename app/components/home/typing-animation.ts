/**
 * Types and deletes the hero's rotating word with the site's own small loop, loaded after
 * hydration (docs/decisions/025-own-typing-loop.md).
 */
/** 100 ms per character, 700 ms before deleting: the original specification's values. */
const typingTimings = { typeMs: 100, deleteMs: 50, holdMs: 700 } as const;

/** A step's delay, up to half as long again at random, so the typing reads like a person's. */
function humanized(ms: number): number {
  return ms + Math.round((Math.random() * ms) / 2);
}

/**
 * Rests on the first word (the one on screen), then deletes it letter by letter down to what
 * it shares with the next and types the next, forever. A cursor follows the word and blinks
 * while it rests. Returns a function that stops it and removes the cursor.
 */
export function startTyping(element: HTMLElement, words: readonly [string, ...string[]]): () => void {
  const cursor = document.createElement("span");
  cursor.className = "typed-cursor";
  cursor.setAttribute("aria-hidden", "true");
  cursor.textContent = "|";
  element.after(cursor);

  let shown = words[0];
  let index = 0;
  let timer: number | undefined;
  const step = () => {
    const word = words[index] ?? words[0];
    if (shown === word) {
      index = (index + 1) % words.length;
      cursor.classList.add("typed-cursor--blink");
      timer = window.setTimeout(step, typingTimings.holdMs);
      return;
    }
    const deleting = !word.startsWith(shown);
    cursor.classList.remove("typed-cursor--blink");
    timer = window.setTimeout(
      () => {
        shown = deleting ? shown.slice(0, -1) : word.slice(0, shown.length + 1);
        element.textContent = shown;
        step();
      },
      humanized(deleting ? typingTimings.deleteMs : typingTimings.typeMs),
    );
  };
  step();

  return () => {
    window.clearTimeout(timer);
    cursor.remove();
  };
}
