/** Records in the browser where a visit came from (first landing and referring site) for the enquiry form. */
import { MAX_LANDING_LENGTH, SOURCE_FIELDS } from "~/enquiry/source-fields";

/**
 * Keeps where the visit began, in this module's memory only (no cookie, no browser storage):
 * the first page's path and query, and the origin of another site that sent the visitor. Both
 * go with the enquiry form's data when it is submitted, however many pages the visitor opened
 * in between without reloading. Called once, at start-up, before the router changes the URL.
 */
export function recordVisitSource(): void {
  const landing = location.pathname + location.search;
  const referrer = document.referrer && new URL(document.referrer).origin;
  // `formdata` fires whenever the form's data is gathered: by Remix's submit and by the browser's own.
  addEventListener("formdata", ({ target, formData }) => {
    if ((target as HTMLFormElement).id !== "enquiry") return;
    if (landing.length <= MAX_LANDING_LENGTH) formData.set(SOURCE_FIELDS.landing, landing);
    if (referrer !== location.origin) formData.set(SOURCE_FIELDS.referrer, referrer);
  });
}
