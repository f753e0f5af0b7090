/**
 * The site's sticky header: the logo, the navigation (marking the section the address names) and
 * the menu drawer.
 */
import { useLocation } from "@remix-run/react";
import type { NavItem } from "~/content/navigation";
import { navItems } from "~/content/navigation";
import { useScrolledPast } from "~/hooks/use-scrolled-past";
import { useUrlHash } from "~/hooks/use-url-hash";
import { BrandLogo } from "./brand-logo";
import { NavLinks } from "./nav-links";
import { SiteMenuDrawer } from "./site-menu-drawer";

/** The bar changes style once the page is scrolled more than this many pixels. */
export const SCROLLED_THRESHOLD_PX = 50;

function useActiveAnchor(onHomePage: boolean): NavItem["anchor"] | undefined {
  const hash = useUrlHash("top");
  if (!onHomePage) return undefined;
  if (hash === "") return "top";
  return navItems.find((item) => item.anchor === hash)?.anchor;
}

export function SiteHeader() {
  const { pathname } = useLocation();
  const onHomePage = pathname === "/";
  const activeAnchor = useActiveAnchor(onHomePage);
  const scrolled = useScrolledPast(SCROLLED_THRESHOLD_PX) === true;

  return (
    <header
      data-scrolled={scrolled ? "true" : "false"}
      className={`sticky top-0 z-40 transition-[background-color,box-shadow] duration-200 motion-reduce:transition-none ${
        scrolled ? "bg-white/95 shadow-md shadow-black/5 backdrop-blur" : "bg-white"
      }`}
    >
      <a
        href="#main"
        className="sr-only rounded-full bg-primary px-5 py-3 font-semibold text-white focus:not-sr-only focus:absolute focus:top-3 focus:left-3 focus:z-50"
      >
        Skip to content
      </a>
      {/* The bar keeps its height when scrolled: a resize would shift the whole page. */}
      <div className="mx-auto flex h-18 max-w-7xl items-center justify-between px-6">
        <BrandLogo />
        <nav aria-label="Main" className="max-nav:hidden">
          <NavLinks layout="bar" onHomePage={onHomePage} activeAnchor={activeAnchor} />
        </nav>
        <SiteMenuDrawer onHomePage={onHomePage} activeAnchor={activeAnchor} />
      </div>
    </header>
  );
}
