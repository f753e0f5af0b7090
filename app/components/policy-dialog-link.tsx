/** A link to a policy page that, with JavaScript, opens the policy in a dialog instead of leaving the form. */
import { useFetcher } from "@remix-run/react";
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useId, useRef } from "react";
import type { Policy } from "~/content/policies/types";
import { useHydrated } from "~/hooks/use-hydrated";
import { useRootData } from "~/root-data";

// Only a visitor who opens a dialog needs the policy layout: it loads with the text.
const PolicyBody = lazy(() => import("./policy-body").then((module) => ({ default: module.PolicyBody })));

interface PolicyDialogLinkProps {
  /** The policy page; its loader returns `{ policy }`, which the dialog shows. */
  href: Policy["path"];
  className?: string;
  children: ReactNode;
}

/**
 * A link to a policy page that, once hydrated, opens the same text in a full-width modal
 * dialog instead. The text comes from the page's loader, so it never weighs on the bundle.
 */
export function PolicyDialogLink({ href, className, children }: PolicyDialogLinkProps) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<{ policy: Policy }>();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const policy = fetcher.data?.policy;
  const loading = <p role="status">{useRootData()?.words.footer.loading}</p>;

  const load = useCallback(() => {
    if (fetcher.state === "idle" && !fetcher.data) fetcher.load(href);
    void import("./policy-body");
  }, [fetcher, href]);

  // Every link whose `data-policy-dialog` names this policy opens the dialog: this one, and those
  // in server-rendered markup, which is never hydrated (the privacy notice). The focus returns
  // to the link that opened it.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!hydrated || !dialog) return;
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element).closest?.<HTMLElement>(`[data-policy-dialog="${href}"]`);
      if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
        return;
      event.preventDefault();
      openerRef.current = link;
      load();
      dialog.showModal();
    };
    const onClose = () => openerRef.current?.focus();
    document.addEventListener("click", onClick);
    dialog.addEventListener("close", onClose);
    return () => {
      document.removeEventListener("click", onClick);
      dialog.removeEventListener("close", onClose);
    };
  }, [hydrated, href, load]);

  return (
    <>
      <a
        href={href}
        data-policy-dialog={href}
        className={className}
        aria-haspopup={hydrated ? "dialog" : undefined}
        onPointerEnter={load}
        onFocus={load}
      >
        {children}
      </a>
      {hydrated && (
        <dialog ref={dialogRef} aria-labelledby={titleId} className="policy-dialog">
          <div className="sticky top-0 z-10 flex items-center justify-between gap-4 border-black/10 border-b bg-white px-6 py-4">
            <h2 id={titleId} className="font-bold text-xl text-ink sm:text-2xl">
              {policy?.title ?? children}
            </h2>
            <form method="dialog">
              <button
                type="submit"
                aria-label="Close"
                className="inline-flex size-11 items-center justify-center rounded-full text-ink hover:bg-primary-soft hover:text-primary"
              >
                <svg
                  viewBox="0 0 24 24"
                  width="24"
                  height="24"
                  aria-hidden="true"
                  fill="none"
                  stroke="currentColor"
                >
                  <path d="M6 6l12 12M18 6L6 18" strokeWidth="2" strokeLinecap="round" />
                </svg>
              </button>
            </form>
          </div>
          <div className="mx-auto max-w-3xl px-6 py-8 text-ink">
            <Suspense fallback={loading}>
              {policy ? <PolicyBody policy={policy} headingLevel={3} /> : loading}
            </Suspense>
          </div>
        </dialog>
      )}
    </>
  );
}
