/**
 * The partner carousel's autoplay delay, in a module without Swiper so that the browser tests can
 * read it.
 */
/** The partner carousel moves on one slide every 1500 ms while it plays, as originally specified. */
export const PARTNERS_AUTOPLAY_DELAY_MS = 1500;
