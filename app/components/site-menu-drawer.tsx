/** The navigation drawer of narrow screens (1023 px or less), working with and without JavaScript. */
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from "react";
import type { NavItem } from "~/content/navigation";
import { useHydrated } from "~/hooks/use-hydrated";
import { replaceUrlHash } from "~/hooks/use-url-hash";
import { BrandLogo } from "./brand-logo";
import { NavLinks } from "./nav-links";

const DRAWER_ID = "site-menu";

const focusableSelector =
  'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface SiteMenuDrawerProps {
  onHomePage: boolean;
  activeAnchor: NavItem["anchor"] | undefined;
}

/**
 * The navigation at 1023 px or less: a full-screen drawer from the right. Without
 * JavaScript the menu link targets the drawer and CSS `:target` shows it; once hydrated,
 * the menu is a button opening a modal dialog (focus trapped, Escape closes, focus returns).
 */
export function SiteMenuDrawer({ onHomePage, activeAnchor }: SiteMenuDrawerProps) {
  const hydrated = useHydrated();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);

  const openDrawer = useCallback(() => {
    const dialog = dialogRef.current;
    if (!dialog || dialog.open) return;
    dialog.showModal();
    setOpen(true);
  }, []);

  const closeDrawer = useCallback(() => dialogRef.current?.close(), []);

  // A visitor who opened the no-JS drawer before hydration keeps it open, now as a modal.
  useEffect(() => {
    if (window.location.hash === `#${DRAWER_ID}`) {
      replaceUrlHash("");
      openDrawer();
    }
  }, [openDrawer]);

  // The drawer only exists below the `nav` breakpoint: close it if the window grows past it.
  useEffect(() => {
    const wide = window.matchMedia("(min-width: 64rem)");
    const onChange = () => {
      if (wide.matches) closeDrawer();
    };
    wide.addEventListener("change", onChange);
    return () => wide.removeEventListener("change", onChange);
  }, [closeDrawer]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const onClose = () => {
      setOpen(false);
      buttonRef.current?.focus();
    };
    dialog.addEventListener("close", onClose);
    return () => dialog.removeEventListener("close", onClose);
  }, []);

  const trapFocus = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== "Tab") return;
    const focusable = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(focusableSelector));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (
      event.shiftKey &&
      (document.activeElement === first || document.activeElement === event.currentTarget)
    ) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const menuIcon = (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" fill="none" stroke="currentColor">
      <path d="M4 7h16M4 12h16M4 17h16" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
  const closeIcon = (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" fill="none" stroke="currentColor">
      <path d="M6 6l12 12M18 6L6 18" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
  const controlClass =
    "inline-flex size-11 items-center justify-center rounded-full text-ink transition-colors hover:bg-primary-soft hover:text-primary";

  return (
    <div className="nav:hidden">
      {hydrated ? (
        <button
          ref={buttonRef}
          type="button"
          className={controlClass}
          aria-label="Open menu"
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-controls={DRAWER_ID}
          onClick={openDrawer}
        >
          {menuIcon}
        </button>
      ) : (
        <a href={`#${DRAWER_ID}`} className={controlClass} aria-label="Open menu">
          {menuIcon}
        </a>
      )}
      <dialog
        ref={dialogRef}
        id={DRAWER_ID}
        aria-label="Menu"
        className="site-drawer"
        onKeyDown={trapFocus}
        onClick={(event) => {
          if (event.target === event.currentTarget) closeDrawer();
        }}
      >
        <div className="flex items-center justify-between px-6 py-4">
          <BrandLogo />
          {hydrated ? (
            <button type="button" className={controlClass} aria-label="Close menu" onClick={closeDrawer}>
              {closeIcon}
            </button>
          ) : (
            <a href="#close-menu" className={controlClass} aria-label="Close menu">
              {closeIcon}
            </a>
          )}
        </div>
        <nav aria-label="Main" className="px-6 pt-6 pb-10">
          <NavLinks
            layout="drawer"
            onHomePage={onHomePage}
            activeAnchor={activeAnchor}
            onNavigate={hydrated ? closeDrawer : undefined}
          />
        </nav>
      </dialog>
    </div>
  );
}
