/**
 * Markup rendered on the server only and adopted as it is in the browser, so a static section
 * ships no JavaScript.
 */
import { type ReactNode, useEffect, useState } from "react";

interface ServerRenderedProps {
  /** Unique in the document: the browser finds the server's markup by it. */
  id: string;
  /**
   * Renders the markup. Pass a component from a `*.server.tsx` module: the browser build
   * replaces such modules with empty ones, so there `render` is undefined and neither the
   * component nor its copy ships as JavaScript.
   */
  render: (() => ReactNode) | undefined;
}

/**
 * Markup with nothing to hydrate, rendered on the server only. In the browser React adopts
 * the server's HTML as it is and never re-renders it, which keeps static sections (their
 * code and their words) out of the page's JavaScript.
 */
export function ServerRendered({ id, render }: ServerRenderedProps) {
  const [html] = useState(() =>
    typeof document === "undefined" ? undefined : document.getElementById(id)?.innerHTML,
  );

  // Only a client-side mount without server markup gets here (the home page is always
  // entered with a document request): ask the server for the whole page instead.
  useEffect(() => {
    if (html === undefined && !render) window.location.reload();
  }, [html, render]);

  if (render) return <div id={id}>{render()}</div>;
  // The markup is the server's own, read back from this very element.
  return (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: the markup is what the server rendered into this very element, read back unchanged
    <div id={id} dangerouslySetInnerHTML={{ __html: html ?? "" }} suppressHydrationWarning />
  );
}
