/** The enquiry's reference beside the form: "Your reference: NRM-7KQ2-M9XD", until the next enquiry. */
import type { Notice } from "~/enquiry/notices";

/**
 * The reference of the enquiry the success notice stands for, in a live region that is always in
 * the page (so a reference arriving later is announced). It stays when the notice hides, and goes
 * with the next enquiry's outcome; one click selects all of it, to copy.
 */
export function EnquiryReference({ notice }: { notice: Notice | null }) {
  const reference = notice?.kind === "sent" ? notice.reference : undefined;
  return (
    <p
      id="enquiry-reference"
      aria-live="polite"
      aria-atomic="true"
      className={reference ? "mt-6 text-ink" : undefined}
    >
      {reference ? (
        <>
          Your reference: <strong className="select-all font-mono font-semibold">{reference}</strong>
        </>
      ) : null}
    </p>
  );
}
