/**
 * An IP address in its short form for reading (RFC 5952): better-auth stores an IPv6 address expanded
 * ("2001:0db8:0000:…:0001"); this shows "2001:db8::1", and an IPv4 address mapped into IPv6 as IPv4.
 * Anything else is returned as it is.
 */
export function compactAddress(address: string): string {
  // A dual-stack server sees an IPv4 client as "::ffff:203.0.113.9"; better-auth stores "203.0.113.9".
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!/^[0-9a-f]{1,4}(:[0-9a-f]{1,4}){7}$/i.test(address)) return address;
  const groups = address
    .toLowerCase()
    .split(":")
    .map((group) => group.replace(/^0+(?=.)/, ""));
  // The longest run of two or more zero groups becomes "::" (the first one when runs tie).
  let best = { start: -1, length: 0 };
  for (let start = 0; start < groups.length;) {
    if (groups[start] !== "0") {
      start++;
      continue;
    }
    let end = start;
    while (end < groups.length && groups[end] === "0") end++;
    if (end - start > best.length) best = { start, length: end - start };
    start = end;
  }
  if (best.length < 2) return groups.join(":");
  const head = groups.slice(0, best.start).join(":");
  const tail = groups.slice(best.start + best.length).join(":");
  return `${head}::${tail}`;
}
