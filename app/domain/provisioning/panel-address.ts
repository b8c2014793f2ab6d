// Where the game panel may be: the address an admin saves and every address it resolves to when a job
// calls it (docs/provisioning.md "Where the panel may be"). Pure: the form's schema, the save and the
// panel client's connection guard share it.

/** Why an address is not on the public internet. */
export type LocalAddressKind = "loopback" | "private" | "linkLocal" | "unspecified" | "reserved";

/**
 * The panel's address as it is saved and compared: the scheme, the host (lower case, without a default
 * port) and the path without trailing slashes. Null when it cannot be a panel's: not http(s), a user or
 * password in it, or a query or fragment, even an empty one ("https://a.test/#" or "…?" would make
 * `<address>/api/application/…` a fragment or a query of any path of that host).
 */
export function panelBaseUrl(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed.includes("#") || trimmed.includes("?")) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password || url.search || url.hash) return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/**
 * What kind of local address `host` is, or null for a public one. `host` is an IP address as a URL's
 * hostname writes it (the URL parser has already turned "2130706433", "0x7f.1" or "017700000001" into
 * "127.0.0.1"; IPv6 in brackets) or as a resolver gives it, or a name: a name is local only when it is
 * `localhost` or under it (RFC 6761); any other is judged by the addresses it resolves to.
 */
export function localAddressKind(host: string): LocalAddressKind | null {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const v4 = parseIpv4(bare);
  if (v4) return ipv4Kind(v4);
  const v6 = parseIpv6(bare);
  if (v6) return ipv6Kind(v6);
  const name = bare.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost") ? "loopback" : null;
}

/** Whether `host` is an IP address (as above) rather than a name to resolve. */
export function isIpAddress(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return parseIpv4(bare) !== null || parseIpv6(bare) !== null;
}

/** The panel's address is refused while a panel on the local network is not allowed. */
export function panelAddressRefused(baseUrl: string, allowLocalNetwork: boolean): boolean {
  if (allowLocalNetwork) return false;
  return localAddressKind(new URL(baseUrl).hostname) !== null;
}

type Ipv4 = [number, number, number, number];

/** Dotted decimal only: what a URL's hostname and a resolver give. */
function parseIpv4(text: string): Ipv4 | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!match) return null;
  const parts = match.slice(1).map(Number);
  if (parts.some((part) => part > 255)) return null;
  return parts as Ipv4;
}

function ipv4Kind([a, b]: Ipv4): LocalAddressKind | null {
  if (a === 0) return "unspecified"; // 0.0.0.0/8, "this network": 0.0.0.0 reaches this host
  if (a === 127) return "loopback";
  if (a === 10) return "private";
  if (a === 172 && b >= 16 && b <= 31) return "private";
  if (a === 192 && b === 168) return "private";
  if (a === 100 && b >= 64 && b <= 127) return "private"; // CGNAT, 100.64.0.0/10
  if (a === 169 && b === 254) return "linkLocal"; // cloud metadata services live here
  if (a === 198 && (b === 18 || b === 19)) return "reserved"; // benchmarking, 198.18.0.0/15
  if (a >= 224) return "reserved"; // multicast, 240.0.0.0/4, broadcast
  return null;
}

/** Eight 16-bit groups, or null; a zone ("%eth0") is not an address a panel has. */
function parseIpv6(text: string): number[] | null {
  if (!text.includes(":") || !/^[0-9a-fA-F:.]+$/.test(text)) return null;
  let head = text;
  const tail: number[] = [];
  // An IPv4 address written in the last 32 bits (::ffff:127.0.0.1).
  const dotted = /^(.*:)(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(text);
  if (dotted) {
    const v4 = parseIpv4(dotted[2]!);
    if (!v4) return null;
    head = dotted[1]!.endsWith("::") ? dotted[1]! : dotted[1]!.slice(0, -1);
    tail.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
  }
  const halves = head.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  if ([...left, ...right].some((group) => !/^[0-9a-fA-F]{1,4}$/.test(group))) return null;
  const written = left.length + right.length + tail.length;
  if (halves.length === 1 ? written !== 8 : written > 7) return null;
  const zeros = Array<number>(8 - written).fill(0);
  return [
    ...left.map((group) => parseInt(group, 16)),
    ...(halves.length === 2 ? zeros : []),
    ...right.map((group) => parseInt(group, 16)),
    ...tail,
  ];
}

function ipv6Kind(groups: number[]): LocalAddressKind | null {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const embedded: Ipv4 = [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff];
  const firstFive = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstFive && g5 === 0) {
    if (g6 === 0 && g7 === 0) return "unspecified";
    if (g6 === 0 && g7 === 1) return "loopback";
    return ipv4Kind(embedded) ?? "reserved"; // IPv4-compatible, deprecated: ::a.b.c.d
  }
  if (firstFive && g5 === 0xffff) return ipv4Kind(embedded); // IPv4-mapped: ::ffff:a.b.c.d
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
    return ipv4Kind(embedded); // NAT64, 64:ff9b::/96: the IPv4 address behind it
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return "private"; // local NAT64, 64:ff9b:1::/48
  if (g0 === 0x2002) return ipv4Kind([g1 >> 8, g1 & 0xff, g2 >> 8, g2 & 0xff]); // 6to4
  if ((g0 & 0xfe00) === 0xfc00) return "private"; // unique local, fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return "linkLocal"; // fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return "private"; // site-local, deprecated: fec0::/10
  if ((g0 & 0xff00) === 0xff00) return "reserved"; // multicast
  return null;
}
