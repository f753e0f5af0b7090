import { type RefObject, useEffect, useRef } from "react";
import { reducedMotionQuery } from "~/hooks/use-media-query";

/** Classes the effect adds; the stylesheet animates them only when motion is allowed. */
export const revealClasses = { pending: "reveal", shown: "reveal-shown" } as const;

function isInViewport(element: Element): boolean {
  const rect = element.getBoundingClientRect();
  return rect.top < window.innerHeight && rect.bottom > 0;
}

/**
 * Fades and scales an element in when it scrolls into view. The classes are added by this
 * effect only: without JavaScript, under reduced motion or without IntersectionObserver the
 * element is simply visible, and an element already on screen is never hidden.
 */
export function useRevealOnScroll<T extends HTMLElement>(): RefObject<T> {
  const ref = useRef<T>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || !("IntersectionObserver" in window)) return;
    if (window.matchMedia(reducedMotionQuery).matches || isInViewport(element)) return;
    element.classList.add(revealClasses.pending);
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        element.classList.add(revealClasses.shown);
        observer.disconnect();
      },
      { rootMargin: "0px 0px -8% 0px" },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      element.classList.remove(revealClasses.pending, revealClasses.shown);
    };
  }, []);
  return ref;
}
