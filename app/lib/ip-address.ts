/**
 * An IP address in its short form for reading (RFC 5952): better-auth stores an IPv6 address expanded
 * ("2001:0db8:0000:…:0001"); this shows "2001:db8::1". IPv4 and anything that is not a plain IPv6
 * address are returned as they are.
 */
export function compactAddress(address: string): string {
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
