/** Whether the visitor asked the system for reduced motion. Browser only. */
export function prefersReducedMotion(): boolean {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
