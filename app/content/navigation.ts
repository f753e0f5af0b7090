/** The site's navigation items, and where each one leads from the home page and from elsewhere. */
import type { NavigationEntry } from "./entries";

export interface NavItem {
  /** Its label's name in content/navigation.yml (the root loader hands the labels to the page). */
  label: keyof NavigationEntry;
  /** The in-page anchor on the home page, or `top` for the top of the page. */
  anchor: "top" | "services" | "testimonial" | "insights" | "contact";
  /** Drawn as a button rather than a plain link. */
  emphasis?: boolean;
}

export const navItems: readonly NavItem[] = [
  { label: "home", anchor: "top" },
  { label: "services", anchor: "services" },
  { label: "reviews", anchor: "testimonial" },
  { label: "insights", anchor: "insights" },
  { label: "contact", anchor: "contact", emphasis: true },
];

/** Where a nav item leads: a hash on the home page, a full path elsewhere. */
export function navHref(anchor: NavItem["anchor"], onHomePage: boolean): string {
  if (anchor === "top") return onHomePage ? "#top" : "/";
  return onHomePage ? `#${anchor}` : `/#${anchor}`;
}
