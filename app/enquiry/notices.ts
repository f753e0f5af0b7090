/** The enquiry's notices: their kinds, how long one shows, and what the form's loader and action hand the page. */
import type { SubmissionResult } from "@conform-to/react";

/**
 * The three outcomes a visitor is told about; their words are content/enquiry-form.yml's, which
 * the specification's error catalogue quotes.
 */
export type NoticeKind = "sent" | "invalid" | "failed";

/** An outcome to tell once; `id` is new for every outcome so an identical second notice shows again. */
export interface NoticeOutcome {
  kind: NoticeKind;
  id: string;
  /** A success's enquiry reference (`NRM-7KQ2-M9XD`, ~/lead-parts/reference), shown beside the form until the next enquiry. */
  reference?: string;
  /** Its line as the page shows it, made on the server (~/enquiry/reference-line.server). */
  referenceHtml?: string;
}

/**
 * An outcome with its words (content/enquiry-form.yml), which the server adds: the page carries
 * a notice's words only when it has one to show, and never in its bundle.
 */
export interface Notice extends NoticeOutcome {
  text: string;
}

export const NOTICE_TIMEOUT_MS = 6000;

/**
 * The query parameter of the URL a sender lands on after a successful enquiry
 * (`/?enquiry=<token>#contact`): a signed, single-use token standing for the success notice and
 * the enquiry's reference (~/enquiry/sent-notice.server). A URL carrying it is never a shared document.
 */
export const NOTICE_PARAMETER = "enquiry";

/** What the home route's loader hands the enquiry form. */
export interface EnquiryLoaderData {
  /** The outcome of the previous POST/redirect/GET round trip, read once from the landing URL's token. */
  notice: Notice | null;
}

/** What the action returns when it does not redirect (invalid input, failure, limits). */
export interface EnquiryActionData {
  result: SubmissionResult<string[]> | null;
  notice: Notice;
}
