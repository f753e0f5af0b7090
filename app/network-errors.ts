/**
 * Node's network and TLS errors in words the site wrote, from their code alone: an error's
 * message can hold more of a URL than its host, or a server's own text.
 */

/** Network errors by code, in words an operator reads at a glance. */
const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EPIPE: "connection reset",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ENOTFOUND: "host name not found",
  EAI_AGAIN: "host name lookup failed",
  ENOENT: "no such socket",
  EACCES: "permission denied",
  CERT_HAS_EXPIRED: "the server's certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's certificate does not name this host",
};

/** TLS codes that say the server's certificate chain is not one this process trusts. */
const UNTRUSTED =
  /^(SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_(UNTRUSTED|REJECTED|SIGNATURE_FAILURE))$/;

/** The words for a network or TLS error code; undefined for a code this table does not know. */
export function networkWords(code: string): string | undefined {
  if (NETWORK_WORDS[code] !== undefined) return NETWORK_WORDS[code];
  if (UNTRUSTED.test(code)) return "the server's certificate is not trusted";
  if (/CERT|TLS|SSL/.test(code)) return "TLS failed";
  return undefined;
}

/** The code of a Node error (`ECONNREFUSED`, a TLS code…), when it is one: letters, digits and `_`. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === "string" && /^[A-Z][A-Z0-9_]*$/.test(code) ? code : undefined;
}

/**
 * One short line for a network error, from its code (`connection refused (ECONNREFUSED)`):
 * never its message. Without a code, the error's class name.
 */
export function describeNetworkError(error: unknown): string {
  const code = errorCode(error);
  if (!code) return error instanceof Error ? error.name : "network error";
  return `${networkWords(code) ?? "network error"} (${code})`;
}
