/**
 * A part of the page that React hydrates apart from the rest, and a way to wait until every
 * such part on the page is hydrated.
 */
import { type ReactNode, Suspense, useEffect, useId } from "react";

/** Each part on the page, by id: whether it is hydrated yet. */
const parts = new Map<string, boolean>();
const waiters = new Set<() => void>();

function callWaitersIfAllHydrated(): void {
  if ([...parts.values()].some((hydrated) => !hydrated)) return;
  for (const waiter of waiters) {
    waiters.delete(waiter);
    waiter();
  }
}

/** Inside the boundary: its effect runs once the part is hydrated (or rendered, after a navigation). */
function HydratedMark({ id }: { id: string }) {
  useEffect(() => {
    parts.set(id, true);
    callWaitersIfAllHydrated();
  }, [id]);
  return null;
}

/**
 * A `<Suspense>` boundary that never suspends: React hydrates and commits its children after the
 * page around it, with the main thread free in between (docs/performance.md, "The design").
 */
export function HydratedApart({ children }: { children: ReactNode }) {
  const id = useId();
  useEffect(() => {
    // Its mark's effect runs first when both mount in one commit (a navigation to the page).
    if (!parts.has(id)) parts.set(id, false);
    return () => {
      parts.delete(id);
      callWaitersIfAllHydrated();
    };
  }, [id]);
  return (
    <Suspense>
      <HydratedMark id={id} />
      {children}
    </Suspense>
  );
}

/**
 * Calls `callback` once every part on the page is hydrated; returns a function that cancels it.
 * A router update (a navigation, even one that only replaces the query) reaches every boundary:
 * one still unhydrated would be thrown away and rendered again on the client (React's error
 * #421), losing what a visitor had begun typing in it.
 */
export function whenEveryPartHydrated(callback: () => void): () => void {
  waiters.add(callback);
  // After the rest of this commit's effects, which register the parts still to come.
  queueMicrotask(callWaitersIfAllHydrated);
  return () => {
    waiters.delete(callback);
  };
}
