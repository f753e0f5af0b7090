import { useEffect } from "react";
import { reducedMotionQuery } from "~/hooks/use-media-query";

/** Classes the effect adds; the stylesheet animates them only when motion is allowed. */
export const revealClasses = { pending: "reveal", shown: "reveal-shown" } as const;

function isInViewport(element: Element): boolean {
  const rect = element.getBoundingClientRect();
  return rect.top < window.innerHeight && rect.bottom > 0;
}

/**
 * Fades and scales every `[data-reveal]` element in when it scrolls into view. The classes
 * are added by this effect only: without JavaScript, under reduced motion or without
 * IntersectionObserver the elements are simply visible, and one already on screen is never
 * hidden. It works on server-rendered markup React does not manage as well.
 */
export function useRevealOnScroll(): void {
  useEffect(() => {
    if (!("IntersectionObserver" in window) || window.matchMedia(reducedMotionQuery).matches) return;
    const elements = Array.from(document.querySelectorAll<HTMLElement>("[data-reveal]")).filter(
      (element) => !isInViewport(element),
    );
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          entry.target.classList.add(revealClasses.shown);
          observer.unobserve(entry.target);
        }
      },
      { rootMargin: "0px 0px -8% 0px" },
    );
    for (const element of elements) {
      element.classList.add(revealClasses.pending);
      observer.observe(element);
    }
    return () => {
      observer.disconnect();
      for (const element of elements) element.classList.remove(revealClasses.pending, revealClasses.shown);
    };
  }, []);
}
