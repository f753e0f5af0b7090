/** The site's navigation items, and where each one leads from the home page and from elsewhere. */
export interface NavItem {
  label: string;
  /** The in-page anchor on the home page, or `top` for the top of the page. */
  anchor: "top" | "services" | "testimonial" | "insights" | "contact";
  /** Drawn as a button rather than a plain link. */
  emphasis?: boolean;
}

export const navItems: readonly NavItem[] = [
  { label: "Home", anchor: "top" },
  { label: "Services", anchor: "services" },
  { label: "Reviews", anchor: "testimonial" },
  { label: "Insights", anchor: "insights" },
  { label: "LET'S TALK", anchor: "contact", emphasis: true },
];

/** Where a nav item leads: a hash on the home page, a full path elsewhere. */
export function navHref(anchor: NavItem["anchor"], onHomePage: boolean): string {
  if (anchor === "top") return onHomePage ? "#top" : "/";
  return onHomePage ? `#${anchor}` : `/#${anchor}`;
}
