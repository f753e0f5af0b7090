/** Removes the success notice's token from the address bar once the notice is shown. */
import { type ShouldRevalidateFunction, useLocation, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { NOTICE_PARAMETER } from "~/enquiry/notices";
import { whenEveryPartHydrated } from "~/hydration/hydrated-apart";

/** The query without the notice token (`?` and all when nothing else is left). */
function searchWithoutToken(search: string): string {
  const params = new URLSearchParams(search);
  params.delete(NOTICE_PARAMETER);
  const rest = params.toString();
  return rest === "" ? "" : `?${rest}`;
}

/**
 * Once the page has read the sender's notice, the token leaves the address bar (it is used up:
 * a bookmark, a shared link or a reload would show nothing anyway). The router makes the change,
 * so its location stays the window's; no loader runs again (see `keepDataWhenTokenLeaves`). It
 * waits for every part of the page to be hydrated, which a router update must not overtake.
 */
export function useDropNoticeToken(): void {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (!new URLSearchParams(search).has(NOTICE_PARAMETER)) return;
    return whenEveryPartHydrated(() =>
      navigate(
        // The fragment from the window: in-page anchors are left to the browser, not the router.
        { pathname, search: searchWithoutToken(search), hash: window.location.hash },
        { replace: true, preventScrollReset: true },
      ),
    );
  }, [pathname, search, navigate]);
}

/**
 * Dropping the token changes nothing any loader reads; revalidating would fetch the page's data
 * again and take the notice away while the visitor reads it.
 */
export const keepDataWhenTokenLeaves: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) => {
  const tokenLeaves =
    formMethod === undefined &&
    currentUrl.searchParams.has(NOTICE_PARAMETER) &&
    nextUrl.pathname === currentUrl.pathname &&
    nextUrl.search === searchWithoutToken(currentUrl.search);
  return tokenLeaves ? false : defaultShouldRevalidate;
};
