/**
 * A request target as the request log writes it: the path and the names of the query's
 * parameters, never their values (`/?utm_source&utm_campaign`, `/?enquiry`): a value can be a
 * visitor's e-mail pasted into a link, a click id tied to a person, or a notice token.
 */
export function loggedUrl(target: string): string {
  const queryAt = target.indexOf("?");
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  const query =
    queryAt === -1
      ? ""
      : `?${[...new URLSearchParams(target.slice(queryAt)).keys()].map(encodeURIComponent).join("&")}`;
  return `${path}${query}`.replace(/[^\x21-\x7e]/g, "?");
}
