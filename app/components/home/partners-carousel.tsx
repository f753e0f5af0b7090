import { useEffect, useRef, useState } from "react";
import type { Partner } from "~/content/partners";
import { partnerLogoSize, partnersIntro } from "~/content/partners";
import { usePrefersReducedMotion } from "~/hooks/use-media-query";
import { useNearViewport } from "~/hooks/use-near-viewport";

/** Spec §9: autoplay every 1500 ms, 3 per view from 1024 px, one slide per step, drag threshold 80. */
export const carouselSettings = {
  autoplay: { delay: 1500, pauseOnMouseEnter: true, disableOnInteraction: false },
  slidesPerView: 1,
  slidesPerGroup: 1,
  breakpoints: { 1024: { slidesPerView: 3 } },
  loop: true,
  threshold: 80,
  spaceBetween: 24,
} as const;

/**
 * 'Trusted By'. Without JavaScript a scrollable row of logos; once it nears the viewport,
 * Swiper takes over the same markup and autoplays (not under reduced motion), pausing on
 * hover, on keyboard focus and with a visible pause button.
 */
export function PartnersCarousel({ partners }: { partners: readonly Partner[] }) {
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

    import("~/components/home/load-swiper").then(({ Swiper, Autoplay }) => {
      if (cancelled) return;
      const swiper = new Swiper(element, {
        ...carouselSettings,
        breakpoints: { ...carouselSettings.breakpoints },
        modules: [Autoplay],
        autoplay: { ...carouselSettings.autoplay },
      });
      // Autoplay runs only while wanted and neither hovered nor holding keyboard focus.
      let hovered = false;
      let focused = false;
      syncRef.current = () => {
        const run = playingRef.current && !hovered && !focused;
        if (run && !swiper.autoplay.running) swiper.autoplay.start();
        if (!run && swiper.autoplay.running) swiper.autoplay.stop();
      };
      const listeners: [string, (event: Event) => void][] = [
        [
          "pointerenter",
          () => {
            hovered = true;
            syncRef.current();
          },
        ],
        [
          "pointerleave",
          () => {
            hovered = false;
            syncRef.current();
          },
        ],
        [
          "focusin",
          () => {
            focused = true;
            syncRef.current();
          },
        ],
        [
          "focusout",
          (event) => {
            focused = element.contains((event as FocusEvent).relatedTarget as Node | null);
            syncRef.current();
          },
        ],
      ];
      for (const [type, listener] of listeners) element.addEventListener(type, listener);
      playingRef.current = !reducedMotion;
      setPlaying(!reducedMotion);
      syncRef.current();
      setReady(true);
      destroy = () => {
        for (const [type, listener] of listeners) element.removeEventListener(type, listener);
        swiper.destroy(true, true);
      };
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
      <div
        ref={container}
        role="region"
        aria-label={partnersIntro.carouselLabel}
        tabIndex={0}
        className="swiper partners-swiper w-full"
      >
        <ul className="swiper-wrapper">
          {partners.map((partner) => (
            <li key={partner.id} className="swiper-slide">
              <div className="partner-logo">
                <img
                  src={partner.url}
                  alt={partner.name}
                  width={partnerLogoSize.width}
                  height={partnerLogoSize.height}
                  loading="lazy"
                  decoding="async"
                  className="h-12 w-auto"
                />
              </div>
            </li>
          ))}
        </ul>
      </div>
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
          {playing ? "Pause carousel" : "Play carousel"}
        </button>
      </p>
    </div>
  );
}
