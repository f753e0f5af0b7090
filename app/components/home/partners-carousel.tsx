/** The 'Trusted By' logos: a scrollable row that Swiper turns into a carousel when it nears the viewport. */
import { useEffect, useRef, useState } from "react";
import { ContentImage } from "~/components/content-image";
import { useHomeContent } from "~/components/home/home-content";
import type { Partner } from "~/content/partners";
import { usePrefersReducedMotion } from "~/hooks/use-media-query";
import { useNearViewport } from "~/hooks/use-near-viewport";

/**
 * 'Trusted By'. Without JavaScript a scrollable row of logos; once it nears the viewport,
 * Swiper takes over the same markup and autoplays (not under reduced motion), pausing on
 * hover, on keyboard focus and with a visible pause button.
 */
export function PartnersCarousel({ partners }: { partners: readonly Partner[] }) {
  const { partnerLogoSize, partnersIntro } = useHomeContent();
  const container = useRef<HTMLDivElement>(null);
  const near = useNearViewport(container, "200px");
  const reducedMotion = usePrefersReducedMotion();
  const syncRef = useRef<() => void>(() => {});
  const [ready, setReady] = useState(false);
  const [playing, setPlaying] = useState(true);
  const playingRef = useRef(true);

  useEffect(() => {
    const element = container.current;
    if (!near || !element || reducedMotion === null) return;
    let cancelled = false;
    let destroy: (() => void) | undefined;

    import("~/components/home/partners-swiper").then(({ mountPartnersCarousel }) => {
      if (cancelled) return;
      playingRef.current = !reducedMotion;
      setPlaying(!reducedMotion);
      const carousel = mountPartnersCarousel(element, () => playingRef.current);
      syncRef.current = carousel.sync;
      setReady(true);
      destroy = carousel.destroy;
    });
    return () => {
      cancelled = true;
      destroy?.();
      syncRef.current = () => {};
      setReady(false);
    };
  }, [near, reducedMotion]);

  function togglePlaying() {
    const next = !playingRef.current;
    playingRef.current = next;
    setPlaying(next);
    syncRef.current();
  }

  return (
    <div className="grid grid-cols-1 gap-5">
      <section
        ref={container}
        aria-label={partnersIntro.carouselLabel}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard to scroll it (WCAG 2.1.1, axe scrollable-region-focusable)
        tabIndex={0}
        className="swiper partners-swiper w-full"
      >
        <ul className="swiper-wrapper">
          {partners.map((partner) => (
            <li key={partner.id} className="swiper-slide">
              <div className="partner-logo">
                <ContentImage
                  image={{
                    src: partner.url,
                    alt: partner.name,
                    ...partnerLogoSize,
                    responsive: partner.logoSet,
                  }}
                  sizes={`${partnerLogoSize.width}px`}
                  className="h-12 w-auto"
                />
              </div>
            </li>
          ))}
        </ul>
      </section>
      <p className="js-only flex justify-center">
        <button
          type="button"
          onClick={togglePlaying}
          disabled={!ready}
          className="inline-flex items-center gap-2 rounded-full border border-primary/30 bg-white px-4 py-2 font-semibold text-primary-dark text-sm shadow-sm transition-colors hover:bg-primary-soft disabled:cursor-wait disabled:opacity-70"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
            {playing ? <path d="M6 4h3v12H6zM11 4h3v12h-3z" /> : <path d="M6 4l10 6-10 6z" />}
          </svg>
          {playing ? partnersIntro.pause : partnersIntro.play}
        </button>
      </p>
    </div>
  );
}
