/** The floating 'Back to top' link. */
import type { MouseEvent } from "react";
import { useScrolledPast } from "~/hooks/use-scrolled-past";
import { replaceUrlHash } from "~/hooks/use-url-hash";
import { prefersReducedMotion } from "~/utils/motion";

/**
 * A floating link back to the top. Without JavaScript it is always there (`#top` is the top
 * of the document); with it, it hides once the browser says the page is at the top, and
 * scrolls smoothly.
 */
export function ScrollToTop() {
  const hidden = useScrolledPast(0) === false;

  const scrollToTop = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? "instant" : "smooth" });
    if (window.location.hash) replaceUrlHash("");
    // Keyboard users continue from the top of the page, not from the footer.
    document.querySelector<HTMLElement>("header a[href='/']")?.focus({ preventScroll: true });
  };

  return (
    // biome-ignore lint/a11y/useValidAnchor: a real link to #top that works without JavaScript; the handler only adds the smooth scroll and focus move
    <a
      href="#top"
      onClick={scrollToTop}
      data-visible={hidden ? "false" : "true"}
      className={`fixed right-5 bottom-5 z-30 inline-flex size-12 items-center justify-center rounded-full bg-primary text-white shadow-lg shadow-primary/30 transition-[opacity,transform,visibility] duration-200 motion-reduce:transition-none hover:bg-primary-dark ${
        hidden ? "invisible translate-y-3 opacity-0" : "visible opacity-100"
      }`}
    >
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="none" stroke="currentColor">
        <path d="M12 19V5M5 12l7-7 7 7" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="sr-only">Back to top</span>
    </a>
  );
}
