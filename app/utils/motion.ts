/** Whether the visitor asked for reduced motion, read in the browser. */
import { reducedMotionQuery } from "~/hooks/use-media-query";

/** Whether the visitor asked the system for reduced motion. Browser only. */
export function prefersReducedMotion(): boolean {
  return window.matchMedia(reducedMotionQuery).matches;
}
