import { useEffect } from "react";
import { reducedMotionQuery } from "~/hooks/use-media-query";

/** Classes the effect adds; the stylesheet animates them only when motion is allowed. */
export const revealClasses = { pending: "reveal", shown: "reveal-shown" } as const;

/**
 * Fades and scales every `[data-reveal]` element in when it scrolls into view. The classes
 * are added by this effect only: without JavaScript, under reduced motion or without
 * IntersectionObserver the elements are simply visible, and one already on screen is never
 * hidden. It works on server-rendered markup React does not manage as well. Where each
 * element stands comes from the observer's first report, after the next frame's layout:
 * measuring them here, in hydration's own task, forced a layout, and hiding them a style
 * recalculation, that the page does not need before its next frame.
 */
export function useRevealOnScroll(): void {
  useEffect(() => {
    if (!("IntersectionObserver" in window) || window.matchMedia(reducedMotionQuery).matches) return;
    const elements = Array.from(document.querySelectorAll<HTMLElement>("[data-reveal]"));
    const placed = new WeakSet<Element>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const { target, boundingClientRect, isIntersecting } of entries) {
          if (!placed.has(target)) {
            placed.add(target);
            // On screen when the page became interactive: never hidden.
            if (boundingClientRect.top < window.innerHeight && boundingClientRect.bottom > 0) {
              observer.unobserve(target);
            } else {
              target.classList.add(revealClasses.pending);
            }
          } else if (isIntersecting) {
            target.classList.add(revealClasses.shown);
            observer.unobserve(target);
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
