/** Spec §9: the partner carousel moves on one slide every 1500 ms while it plays. */
export const PARTNERS_AUTOPLAY_DELAY_MS = 1500;
