/**
 * Domain results carry message keys like "orders.errors.serviceNotFound": the first segment names the
 * catalogue namespace. This turns one into the translator's "orders:errors.serviceNotFound".
 */
export function messageKey(key: string): string {
  const dot = key.indexOf(".");
  return dot > 0 ? `${key.slice(0, dot)}:${key.slice(dot + 1)}` : key;
}
