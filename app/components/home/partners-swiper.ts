/**
 * Mounts Swiper on the partner logos' markup: autoplay, three per view on wide screens, paused on
 * hover and focus.
 *
 * Loaded with import() when the carousel nears the viewport: Swiper and everything that
 * drives it stay out of the page's initial JavaScript.
 */
import Swiper from "swiper";
import { Autoplay } from "swiper/modules";
import { PARTNERS_AUTOPLAY_DELAY_MS } from "~/components/home/partners-autoplay";

/** Autoplay, 3 per view from 1024 px, one slide per step, drag threshold 80, as originally specified. */
const carouselSettings = {
  modules: [Autoplay],
  autoplay: { delay: PARTNERS_AUTOPLAY_DELAY_MS, pauseOnMouseEnter: true, disableOnInteraction: false },
  slidesPerView: 1,
  slidesPerGroup: 1,
  breakpoints: { 1024: { slidesPerView: 3 } },
  loop: true,
  threshold: 80,
  spaceBetween: 24,
};

export interface MountedCarousel {
  /** Starts or stops autoplay to match `wantsToPlay()`, hover and keyboard focus. */
  sync: () => void;
  destroy: () => void;
}

/** Swiper takes over the carousel's markup; autoplay runs only while wanted and neither hovered nor focused. */
export function mountPartnersCarousel(element: HTMLElement, wantsToPlay: () => boolean): MountedCarousel {
  const swiper = new Swiper(element, carouselSettings);
  let hovered = false;
  let focused = false;
  const sync = () => {
    const run = wantsToPlay() && !hovered && !focused;
    if (run && !swiper.autoplay.running) swiper.autoplay.start();
    if (!run && swiper.autoplay.running) swiper.autoplay.stop();
  };
  const listeners: [string, (event: Event) => void][] = [
    [
      "pointerenter",
      () => {
        hovered = true;
        sync();
      },
    ],
    [
      "pointerleave",
      () => {
        hovered = false;
        sync();
      },
    ],
    [
      "focusin",
      () => {
        focused = true;
        sync();
      },
    ],
    [
      "focusout",
      (event) => {
        focused = element.contains((event as FocusEvent).relatedTarget as Node | null);
        sync();
      },
    ],
  ];
  for (const [type, listener] of listeners) element.addEventListener(type, listener);
  sync();
  return {
    sync,
    destroy: () => {
      for (const [type, listener] of listeners) element.removeEventListener(type, listener);
      swiper.destroy(true, true);
    },
  };
}
