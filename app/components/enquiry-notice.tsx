/**
 * The enquiry's notice on the page: the success or failure message after a submit, announced to
 * assistive technology.
 */
import { useEffect, useState } from "react";
import { NOTICE_TIMEOUT_MS, type Notice } from "~/enquiry/notices";

/**
 * The outcome of an enquiry. The live region is always in the page, so a notice inserted
 * later is announced. Without JavaScript the notice sits above the form; with it (the `js`
 * class on <html>) it floats as a toast that hides after 6 s or on its close button.
 */
export function EnquiryNotice({ notice }: { notice: Notice | null }) {
  const [dismissed, setDismissed] = useState<string | null>(null);
  const id = notice?.id;

  useEffect(() => {
    if (!id) return;
    const timer = window.setTimeout(() => setDismissed(id), NOTICE_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [id]);

  const shown = notice !== null && notice.id !== dismissed ? notice : null;
  const success = shown?.kind === "sent";
  return (
    <div
      className={
        shown
          ? `mb-6 flex items-start gap-3 rounded-lg border px-4 py-3 font-medium in-[.js]:fixed in-[.js]:inset-x-4 in-[.js]:bottom-4 in-[.js]:z-50 in-[.js]:mb-0 in-[.js]:shadow-lg in-[.js]:sm:inset-x-auto in-[.js]:sm:right-6 in-[.js]:sm:bottom-6 in-[.js]:sm:w-96 ${
              success
                ? "border-emerald-300 bg-emerald-50 text-emerald-900"
                : "border-red-300 bg-red-50 text-red-900"
            }`
          : undefined
      }
    >
      {shown ? (
        <span aria-hidden="true" className="font-bold">
          {success ? "✓" : "!"}
        </span>
      ) : null}
      <p role="status" aria-atomic="true" className="flex-1">
        {shown?.text}
      </p>
      {shown ? (
        <button
          type="button"
          onClick={() => setDismissed(shown.id)}
          className="-my-1 -mr-2 hidden rounded-md px-2 py-1 text-lg leading-none hover:bg-black/5 in-[.js]:inline-block"
          aria-label="Close notice"
        >
          ×
        </button>
      ) : null}
    </div>
  );
}
