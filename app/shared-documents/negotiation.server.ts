/**
 * A shared document's content negotiation: the coding a request accepts, and whether its
 * `If-None-Match` names the ETag.
 */
/** The codings a shared document is stored in, best first when a client likes them equally. */
export const contentEncodings = ["br", "gzip", "identity"] as const;
export type ContentEncoding = (typeof contentEncodings)[number];

/**
 * The coding to send for an `Accept-Encoding` header (RFC 9110 §12.5.3): the highest q-value
 * wins, ties go to the smaller body. A coding the header does not name takes the weight of
 * `*`, or is unacceptable; identity stays acceptable unless excluded, as the last choice. No
 * header at all asks for nothing in particular, and a client that excluded everything still
 * gets identity (the RFC allows it rather than a 406).
 */
export function negotiateEncoding(acceptEncoding: string | null | undefined): ContentEncoding {
  if (!acceptEncoding) return "identity";
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...parameters] = part.split(";");
    const coding = name.trim().toLowerCase();
    if (coding === "") continue;
    let q = 1;
    for (const parameter of parameters) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(parameter);
      if (match) q = Number(match[1]);
    }
    weights.set(coding, q);
  }
  const wildcard = weights.get("*");
  // Unnamed identity is acceptable, but any coding the client named with q > 0 beats it.
  const weight = (coding: ContentEncoding): number =>
    weights.get(coding) ?? wildcard ?? (coding === "identity" ? Number.MIN_VALUE : 0);
  let best: ContentEncoding = "identity";
  let bestWeight = 0;
  for (const coding of contentEncodings) {
    const q = weight(coding);
    if (q > bestWeight) {
      best = coding;
      bestWeight = q;
    }
  }
  return best;
}

/** Whether an `If-None-Match` header names this strong entity tag (or `*`): the client's copy is current. */
export function ifNoneMatchIncludes(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  // Weak comparison, as RFC 9110 §13.1.2 prescribes for If-None-Match: W/"x" matches "x".
  return ifNoneMatch.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag);
}
