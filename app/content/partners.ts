/** The 'Trusted By' section's copy and its partners: their names, links and logos. */
import brightlendLogo from "~/images/partner-brightlend.svg";
import corvantaLogo from "~/images/partner-corvanta.svg";
import quarrystackLogo from "~/images/partner-quarrystack.svg";
import reelwaveLogo from "~/images/partner-reelwave.svg";
import techneraLogo from "~/images/partner-technera.svg";

/**
 * A partner logo in 'Trusted By' (the original specification's fields: id, url, name). Brands are
 * fictional (docs/decisions/004-content-departures.md).
 */
export interface Partner {
  id: string;
  /** URL of the self-hosted logo image. */
  url: string;
  name: string;
}

export const partnersIntro = {
  eyebrow: "Reviews",
  heading: "Trusted By",
  introduction: "Teams in media, finance, data and consulting build with us.",
  carouselLabel: "Partner logos",
} as const;

/** Logo images are drawn at this size (width × height). */
export const partnerLogoSize = { width: 200, height: 64 } as const;

export const partners: readonly Partner[] = [
  { id: "reelwave", url: reelwaveLogo, name: "Reelwave" },
  { id: "brightlend", url: brightlendLogo, name: "BrightLend" },
  { id: "quarrystack", url: quarrystackLogo, name: "QuarryStack" },
  { id: "corvanta", url: corvantaLogo, name: "Corvanta Consulting" },
  { id: "technera", url: techneraLogo, name: "Technera IT Services" },
];
