/**
 * The value kept for `owner` (a translator, say) under `key`, made by `make` the first time. The
 * owner is held weakly: a dropped instance takes its values with it.
 */
export function perInstance<O extends object, K, V>(
  cache: WeakMap<O, Map<K, V>>,
  owner: O,
  key: K,
  make: () => V,
): V {
  let byKey = cache.get(owner);
  if (!byKey) {
    byKey = new Map();
    cache.set(owner, byKey);
  }
  if (!byKey.has(key)) byKey.set(key, make());
  return byKey.get(key) as V;
}
