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

/** The record from each value to its key (`keyOf`), frozen, its family remembered. */
function keyFamily(
  namespace: string,
  prefix: string,
  values: readonly string[],
  keyOf: (value: string) => string,
): object {
  const keys = Object.freeze(Object.fromEntries(values.map((value) => [value, keyOf(value)])));
  families.set(keys, { namespace, prefix, values });
  return keys;
}

export function labelKeys<const Prefix extends string, const Value extends string>(
  namespace: string,
  prefix: Prefix,
  values: readonly Value[],
): LabelKeys<Prefix, Value> {
  return keyFamily(namespace, prefix, values, (value) => `${prefix}.${value}`) as LabelKeys<
    Prefix,
    Value
  >;
}

/**
 * The same family written as a domain message key, namespace first (docs/i18n.md: `messageKey()` reads
 * it): `messageKeys("services", "errors.price", ["required", "invalid"])` is
 * `{ required: "services.errors.price.required", invalid: … }`, for a result or a form error to name.
 */
export type MessageKeys<Namespace extends string, Prefix extends string, Value extends string> = {
  readonly [V in Value]: `${Namespace}.${Prefix}.${V}`;
};

export function messageKeys<
  const Namespace extends string,
  const Prefix extends string,
  const Value extends string,
>(
  namespace: Namespace,
  prefix: Prefix,
  values: readonly Value[],
): MessageKeys<Namespace, Prefix, Value> {
  return keyFamily(
    namespace,
    prefix,
    values,
    (value) => `${namespace}.${prefix}.${value}`,
  ) as MessageKeys<Namespace, Prefix, Value>;
}

/** The family a record was made as by `labelKeys` or `messageKeys`, or undefined for anything else. */
export function labelKeyFamily(value: unknown): LabelKeyFamily | undefined {
  return typeof value === "object" && value !== null ? families.get(value) : undefined;
}
