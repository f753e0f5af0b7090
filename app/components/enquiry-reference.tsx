/** The enquiry's reference beside the form: "Your reference: NRM-7KQ2-M9XD", until the next enquiry. */
import { useEffect, useRef } from "react";
import type { Notice } from "~/enquiry/notices";

/**
 * The reference of the enquiry the success notice stands for, in a live region that is always in
 * the page (so a reference arriving later is announced). It stays when the notice hides, and goes
 * with the next enquiry's outcome; one click selects all of it, to copy. On a phone the Submit
 * button may sit at the bottom of the screen: a new reference is brought into view (only as far
 * as it takes), so the sender sees what to quote.
 */
export function EnquiryReference({ notice }: { notice: Notice | null }) {
  // Only a success's notice has one.
  const html = notice?.referenceHtml;
  const line = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (html) line.current?.scrollIntoView({ block: "nearest" });
  }, [html]);
  return (
    <p
      ref={line}
      id="enquiry-reference"
      aria-live="polite"
      aria-atomic="true"
      className={html ? "mt-6 text-ink" : undefined}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's own markup, from the content's words and a reference it checked (~/enquiry/reference-line.server)
      dangerouslySetInnerHTML={{ __html: html ?? "" }}
    />
  );
}
