/** Reveals the page's `[data-reveal]` elements as they scroll into view, when motion is allowed. */
import { useEffect } from "react";
import { reducedMotionQuery } from "~/hooks/use-media-query";

/** Classes the effect adds; the stylesheet animates them only when motion is allowed. */
export const revealClasses = { pending: "reveal", shown: "reveal-shown" } as const;

/**
 * Fades and scales every `[data-reveal]` element in when it scrolls into view. The classes
 * are added by this effect only: without JavaScript, under reduced motion or without
 * IntersectionObserver the elements are simply visible, and one already on screen is never
 * hidden. It works on server-rendered markup React does not manage as well.
 *
 * Where each element stands comes from the observer's first report, which the browser makes
 * after its next layout: measuring the elements here, inside hydration's commit, forced a
 * layout of the whole page in the middle of hydration. For the same reason the report reads
 * the viewport's height once, before it changes a class: read after each change, it made the
 * browser lay the page out again for every element.
 */
export function useRevealOnScroll(): void {
  useEffect(() => {
    if (!("IntersectionObserver" in window) || window.matchMedia(reducedMotionQuery).matches) return;
    const elements = Array.from(document.querySelectorAll<HTMLElement>("[data-reveal]"));
    const observer = new IntersectionObserver(
      (entries) => {
        const viewportHeight = window.innerHeight;
        for (const { target, boundingClientRect: box, isIntersecting } of entries) {
          if (target.classList.contains(revealClasses.pending)) {
            if (!isIntersecting) continue;
            target.classList.add(revealClasses.shown);
            observer.unobserve(target);
          } else if (box.top < viewportHeight && box.bottom > 0) {
            // On screen (the margin below aside) at the observer's first report: never hidden.
            observer.unobserve(target);
          } else {
            target.classList.add(revealClasses.pending);
          }
        }
      },
      { rootMargin: "0px 0px -8% 0px" },
    );
    for (const element of elements) observer.observe(element);
    return () => {
      observer.disconnect();
      for (const element of elements) element.classList.remove(revealClasses.pending, revealClasses.shown);
    };
  }, []);
}
