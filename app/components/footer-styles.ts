/** Links on the footer's black background. */
export const footerLinkClass = "rounded-sm text-white/75 transition-colors hover:text-white";
