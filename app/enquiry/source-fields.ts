/**
 * The form fields that carry where the visitor came from, added by the browser at submit
 * (app/enquiry/visit-source.client.ts): the first landing's path and query, and the origin of the
 * other site that sent them. Kept in a module of their own so the browser's start-up code
 * imports these two names only.
 */
export const SOURCE_FIELDS = { landing: "source_landing", referrer: "source_referrer" } as const;

/** Longer landings are not sent: a maximal enquiry with them still fits the 16 KiB body. */
export const MAX_LANDING_LENGTH = 800;
