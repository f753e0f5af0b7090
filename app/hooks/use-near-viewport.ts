/** A hook that says once an element has come near the viewport. */
import { type RefObject, useEffect, useState } from "react";

/** Becomes `true` (and stays so) once the element comes within `rootMargin` of the viewport. */
export function useNearViewport(ref: RefObject<Element>, rootMargin = "200px"): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || near) return;
    if (!("IntersectionObserver" in window)) {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, rootMargin, near]);
  return near;
}
