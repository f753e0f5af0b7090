/**
 * Hooks that say whether a media query matches (reduced motion among them), agreeing with the
 * server's markup at hydration.
 */
import { useEffect, useState } from "react";

/**
 * Whether `query` matches; `null` until the first effect, so the first client render
 * matches the server's markup and the enhanced variant appears right after hydration.
 */
export function useMediaQuery(query: string): boolean | null {
  const [matches, setMatches] = useState<boolean | null>(null);
  useEffect(() => {
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener("change", update);
    return () => list.removeEventListener("change", update);
  }, [query]);
  return matches;
}

export const reducedMotionQuery = "(prefers-reduced-motion: reduce)";

/** `true` under reduced motion, `false` otherwise, `null` before hydration. */
export function usePrefersReducedMotion(): boolean | null {
  return useMediaQuery(reducedMotionQuery);
}
