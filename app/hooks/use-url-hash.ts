/** The URL's fragment as React state, and a way to change it without scrolling. */
import { useSyncExternalStore } from "react";

function subscribe(onChange: () => void) {
  window.addEventListener("hashchange", onChange);
  window.addEventListener("popstate", onChange);
  return () => {
    window.removeEventListener("hashchange", onChange);
    window.removeEventListener("popstate", onChange);
  };
}

/**
 * The URL's fragment without '#', kept in sync with in-page anchor navigation. The server
 * never sees the fragment, so it renders with `serverValue`.
 */
export function useUrlHash(serverValue = ""): string {
  return useSyncExternalStore(
    subscribe,
    () => decodeURIComponent(window.location.hash.slice(1)),
    () => serverValue,
  );
}

/** Replaces the fragment without scrolling, and tells `useUrlHash` about it. */
export function replaceUrlHash(hash: string): void {
  const url = `${window.location.pathname}${window.location.search}${hash ? `#${hash}` : ""}`;
  window.history.replaceState(window.history.state, "", url);
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}
