/** Who a request's client is, as TRUST_PROXY says: the peer, or the address X-Forwarded-For gives for it. */
import { BlockList, isIP } from "node:net";

/** TRUST_PROXY: how many proxies of the operator's stand in front, or their addresses and subnets. */
export type TrustProxy = number | readonly string[];

/** What a request says about where it came from. */
export interface Origin {
  /** The address of the connection's peer (`socket.remoteAddress`). */
  socketAddress: string | undefined;
  /** The `X-Forwarded-For` header as received, if any. */
  forwardedFor: string | readonly string[] | undefined;
}

/**
 * Who the client of a request is, and whether its peer is one of the operator's proxies (whose
 * `X-Forwarded-Proto` and `X-Forwarded-For` are believed). Each proxy appends the address it
 * received the request from to `X-Forwarded-For`; entries further left were written by the
 * client and prove nothing.
 * - `0`: nobody is trusted: there is no client address (the site-wide flood level only).
 * - `N`: the client is the N-th entry from the right, whoever connected.
 * - a list: the header is read only when the peer is in the list, and the client is the
 *   right-most entry not in it; a request from anywhere else is its own client.
 */
export function createClientResolver(trust: TrustProxy) {
  const proxies = typeof trust === "number" ? null : subnetList(trust);
  const isProxy = (address: string) =>
    proxies?.check(address, isIP(address) === 6 ? "ipv6" : "ipv4") ?? false;
  return {
    /** Whether the hop-th address from the socket (0: the peer itself) is a proxy of the operator's. */
    trusts(address: string, hop: number): boolean {
      return typeof trust === "number" ? hop < trust : isIP(address) !== 0 && isProxy(address);
    },
    client({ socketAddress, forwardedFor }: Origin): string | null {
      const entries = [forwardedFor ?? []]
        .flat()
        .join(",")
        .split(",")
        .map((entry) => entry.trim())
        .filter((entry) => entry !== "");
      if (typeof trust === "number") {
        if (trust <= 0) return null;
        return address(entries[entries.length - trust]);
      }
      const peer = address(socketAddress);
      if (peer === null || !isProxy(peer)) return peer;
      let client = peer;
      for (const entry of entries.reverse()) {
        const hop = address(entry);
        if (hop === null) return null;
        client = hop;
        if (!isProxy(hop)) break;
      }
      return client;
    },
  };
}

function subnetList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [base = "", prefix] = entry.split("/");
    const type = isIP(base) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(base, type);
    else list.addSubnet(base, Number(prefix), type);
  }
  return list;
}

/** An IP address in one spelling (lower case; an IPv4-mapped IPv6 address as IPv4), or null. */
function address(value: string | undefined): string | null {
  if (value === undefined) return null;
  const lower = value.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower)?.[1];
  const candidate = mapped ?? lower;
  return isIP(candidate) !== 0 ? candidate : null;
}
