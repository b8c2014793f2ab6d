import { isIP } from "node:net";

/**
 * What TRUST_PROXY says about X-Forwarded-For, as Express's `trust proxy` setting takes it: the
 * addresses (and Express's named ranges) of proxies whose X-Forwarded-For is believed, a number of
 * proxy hops in front of the server, or false (the connection's own address is the client's).
 */
export type TrustProxy = false | number | string[];

/** Express's names for ranges (proxy-addr): the machine itself, link-local and private networks. */
const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);
const MAX_HOPS = 10;

export type TrustProxyResult = { ok: true; value: TrustProxy } | { ok: false; message: string };

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split("/");
  if (rest.length > 0 || !address) return false;
  // A zone (fe80::1%eth0) is not something a proxy's address can be compared with.
  const version = address.includes("%") ? 0 : isIP(address);
  if (version === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Reads TRUST_PROXY: `loopback` (the default: a reverse proxy on the same machine), a comma-separated
 * list of addresses, CIDR ranges and the names loopback, linklocal and uniquelocal, a number of hops
 * (1: the machine that connects is a proxy, and the address it puts last in X-Forwarded-For is the
 * client's), or `none`. "Every proxy" is refused on purpose: it would let any visitor choose the
 * address the limits count.
 */
export function parseTrustProxy(raw: string): TrustProxyResult {
  const value = raw.trim();
  if (value === "none") return { ok: true, value: false };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > MAX_HOPS)
      return { ok: false, message: `a hop count must be between 0 and ${MAX_HOPS}` };
    return { ok: true, value: hops === 0 ? false : hops };
  }
  if (["true", "all", "*"].includes(value.toLowerCase()))
    return {
      ok: false,
      message:
        "trusting every proxy lets any visitor choose their address; give the proxies' addresses or a hop count",
    };
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const wrong = entries.find((entry) => !isAddressOrRange(entry));
  if (entries.length === 0 || wrong !== undefined)
    return {
      ok: false,
      message: `${wrong === undefined ? "empty" : `"${wrong}" is not an address, a CIDR range or loopback, linklocal or uniquelocal`}; use addresses and ranges separated by commas, a hop count or none`,
    };
  return { ok: true, value: entries };
}
