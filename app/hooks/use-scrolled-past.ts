/** A hook that says whether the page is scrolled past an offset, without reading the scroll position. */
import { useMemo, useSyncExternalStore } from "react";

/**
 * An invisible marker, `offset` px tall at the top of the document, leaves the viewport exactly
 * when the page is scrolled past `offset` (at `offset` it still touches the viewport's edge,
 * which counts as intersecting), and an IntersectionObserver says so once the browser has laid
 * the page out anyway. Reading `window.scrollY` instead makes the browser lay the page out
 * there and then: during hydration, after its first changes to the page, that was a layout of
 * the whole page inside one long task (docs/performance.md, "Where the home page's long tasks
 * come from").
 */
function scrolledPastStore(offset: number) {
  let scrolled: boolean | undefined;
  return {
    subscribe(onChange: () => void) {
      const marker = document.createElement("div");
      Object.assign(marker.style, {
        position: "absolute",
        top: "0",
        width: "1px",
        height: `${offset}px`,
        visibility: "hidden",
      });
      document.body.append(marker);
      const observer = new IntersectionObserver(([entry]) => {
        if (entry) scrolled = !entry.isIntersecting;
        onChange();
      });
      observer.observe(marker);
      return () => {
        observer.disconnect();
        marker.remove();
      };
    },
    getSnapshot: () => scrolled,
  };
}

/**
 * Whether the page is scrolled more than `offset` pixels: `undefined` on the server and until
 * the browser first says, a frame after hydration. Until then the component keeps what the
 * server rendered: a visitor may have scrolled before the page hydrated, and a guess of "not
 * scrolled" would change the page under their finger (a tap that forces React to hydrate at
 * once would then land on whatever the guess revealed).
 */
export function useScrolledPast(offset: number): boolean | undefined {
  const store = useMemo(() => scrolledPastStore(offset), [offset]);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, () => undefined);
}
