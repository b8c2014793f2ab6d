/**
 * The keys of an object written out in code, in the order written, typed as the union of its keys. A set
 * of values is then written once, as the keys of the map that goes with it (its catalogue keys, its
 * prices), and listed from there. String keys only: JavaScript lists integer-like keys first, by number.
 */
export function keysOf<K extends string>(record: Readonly<Record<K, unknown>>): readonly K[] {
  return Object.keys(record) as K[];
}
