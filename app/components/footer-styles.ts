/** The style of the footer's links, shared by its server-rendered columns and its bottom bar. */
/** Links on the footer's black background. */
export const footerLinkClass = "rounded-sm text-white/75 transition-colors hover:text-white";
