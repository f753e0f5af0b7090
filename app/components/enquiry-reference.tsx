/** The enquiry's reference beside the form: "Your reference: NRM-7KQ2-M9XD", until the next enquiry. */
import { useEffect, useRef } from "react";
import { useHomeContent } from "~/components/home/home-content";
import type { Notice } from "~/enquiry/notices";

/**
 * The reference of the enquiry the success notice stands for, in a live region that is always in
 * the page (so a reference arriving later is announced). It stays when the notice hides, and goes
 * with the next enquiry's outcome; one click selects all of it, to copy. On a phone the Submit
 * button may sit at the bottom of the screen: a new reference is brought into view (only as far
 * as it takes), so the sender sees what to quote.
 */
export function EnquiryReference({ notice }: { notice: Notice | null }) {
  const words = useHomeContent().form.reference;
  const reference = notice?.kind === "sent" ? notice.reference : undefined;
  const line = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (reference) line.current?.scrollIntoView({ block: "nearest" });
  }, [reference]);
  return (
    <p
      ref={line}
      id="enquiry-reference"
      aria-live="polite"
      aria-atomic="true"
      className={reference ? "mt-6 text-ink" : undefined}
    >
      {reference ? (
        <>
          {words} <strong className="select-all font-mono font-semibold">{reference}</strong>
        </>
      ) : null}
    </p>
  );
}
