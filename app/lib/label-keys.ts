/**
 * The catalogue keys of a set of values: one key a value, `${prefix}.${value}`, in one namespace.
 * `labelKeys("orders", "status", ORDER_STATUSES)` is `{ pending: "status.pending", … }`, each value typed
 * as the key itself, so `t(ORDER_STATUS_LABELS[status])` is checked against the catalogue as a key written
 * out would be. The family is remembered, and app/i18n/catalogues.test.ts reads every exported one and
 * proves each of its keys in every language (docs/i18n.md, ADR 26).
 */
export type LabelKeys<Prefix extends string, Value extends string> = {
  readonly [V in Value]: `${Prefix}.${V}`;
};

/** What a family was made from: the namespace its keys live in, their common prefix and the values. */
export interface LabelKeyFamily {
  namespace: string;
  prefix: string;
  values: readonly string[];
}

const families = new WeakMap<object, LabelKeyFamily>();

export function labelKeys<const Prefix extends string, const Value extends string>(
  namespace: string,
  prefix: Prefix,
  values: readonly Value[],
): LabelKeys<Prefix, Value> {
  const keys = Object.freeze(
    Object.fromEntries(values.map((value) => [value, `${prefix}.${value}`])),
  );
  families.set(keys, { namespace, prefix, values });
  return keys as LabelKeys<Prefix, Value>;
}

/** The family a record was made as by `labelKeys`, or undefined for anything else. */
export function labelKeyFamily(value: unknown): LabelKeyFamily | undefined {
  return typeof value === "object" && value !== null ? families.get(value) : undefined;
}
