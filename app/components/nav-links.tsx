/** The site's navigation links, shared by the header bar and the menu drawer. */
import type { MouseEvent } from "react";
import { type NavItem, navHref, navItems } from "~/content/navigation";
import { useRootData } from "~/root-data";

interface NavLinksProps {
  onHomePage: boolean;
  /** The anchor whose item is highlighted, if any. */
  activeAnchor: NavItem["anchor"] | undefined;
  layout: "bar" | "drawer";
  onNavigate?: (event: MouseEvent<HTMLAnchorElement>) => void;
}

const styles = {
  bar: {
    list: "flex items-center gap-1",
    item: "rounded-full px-4 py-2 font-semibold text-sm transition-colors hover:text-primary",
    active: "text-primary-dark bg-primary-soft",
    emphasis:
      "ml-2 rounded-full bg-primary px-5 py-2.5 font-bold text-sm text-white shadow-sm transition-colors hover:bg-primary-dark",
    emphasisActive: "ring-2 ring-primary ring-offset-2",
  },
  drawer: {
    list: "flex flex-col gap-2",
    item: "block rounded-xl px-4 py-3 font-semibold text-2xl transition-colors hover:bg-primary-soft hover:text-primary",
    active: "text-primary-dark bg-primary-soft",
    emphasis:
      "mt-4 block rounded-full bg-primary px-6 py-4 text-center font-bold text-lg text-white hover:bg-primary-dark",
    emphasisActive: "ring-2 ring-primary ring-offset-2",
  },
} as const;

/** The navigation items: in-page anchors on the home page, links to them elsewhere. */
export function NavLinks({ onHomePage, activeAnchor, layout, onNavigate }: NavLinksProps) {
  const style = styles[layout];
  const labels = useRootData()?.words.navigation;
  if (!labels) return null;
  return (
    <ul className={style.list}>
      {navItems.map((item) => {
        const active = item.anchor === activeAnchor;
        const className = item.emphasis
          ? `${style.emphasis} ${active ? style.emphasisActive : ""}`
          : `${style.item} ${active ? style.active : ""}`;
        const href = navHref(item.anchor, onHomePage);
        return (
          <li key={item.anchor}>
            <a
              href={href}
              className={className}
              aria-current={active ? "location" : undefined}
              onClick={onNavigate}
            >
              {labels[item.label]}
            </a>
          </li>
        );
      })}
    </ul>
  );
}
