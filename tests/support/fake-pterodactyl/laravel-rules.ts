// The part of Laravel's validator the fake panel needs: the rules of the panel's form requests and models
// (StoreServerRequest, StoreUserRequest, User::$validationRules, Server::$validationRules...) and the rules
// eggs give their variables. Same skipping as Laravel (an empty or absent field runs only required/present,
// `nullable` lets null through, `sometimes` skips an absent field, a failed required or `bail` stops the
// field), same messages (resources/lang/en/validation.php) and the same rule names that the panel's
// Handler::invalidJson puts in `meta.rule` (Str::snake of the rule). A rule it does not know throws, so a
// test's egg cannot pass a rule unchecked.

export interface CustomRule {
  /** The name the panel reports in meta.rule (`unique`, `exists`, `p_username`). */
  rule: string;
  passes(value: unknown): boolean;
  /** The message, with `:attribute`. */
  message: string;
}

export interface FieldRules {
  /** Dotted path in the data; a last segment `*` checks every item of an array. */
  field: string;
  rules: string | (string | CustomRule)[];
  /** The name in messages (Laravel's custom attributes); else the field with `_` as spaces. */
  attribute?: string;
}

export interface RuleFailure {
  /** The field as Laravel names it (`limits.memory`, `allocation.additional.0`). */
  field: string;
  rule: string;
  detail: string;
}

interface ParsedRule {
  name: string;
  params: string[];
}

const IMPLICIT = new Set(["required", "present", "required_with", "required_without"]);
const MARKERS = new Set(["nullable", "sometimes", "bail"]);
const NUMERIC_RULES = new Set(["numeric", "integer"]);

const MESSAGES: Record<string, string | Record<"numeric" | "string" | "array", string>> = {
  required: "The :attribute field is required.",
  required_with: "The :attribute field is required when :values is present.",
  required_without: "The :attribute field is required when :values is not present.",
  present: "The :attribute field must be present.",
  string: "The :attribute must be a string.",
  numeric: "The :attribute must be a number.",
  integer: "The :attribute must be an integer.",
  boolean: "The :attribute field must be true or false.",
  array: "The :attribute must be an array.",
  email: "The :attribute must be a valid email address.",
  in: "The selected :attribute is invalid.",
  not_in: "The selected :attribute is invalid.",
  regex: "The :attribute format is invalid.",
  alpha_dash: "The :attribute may only contain letters, numbers, and dashes.",
  alpha_num: "The :attribute may only contain letters and numbers.",
  ip: "The :attribute must be a valid IP address.",
  min: {
    numeric: "The :attribute must be at least :min.",
    string: "The :attribute must be at least :min characters.",
    array: "The :attribute must have at least :min items.",
  },
  max: {
    numeric: "The :attribute may not be greater than :max.",
    string: "The :attribute may not be greater than :max characters.",
    array: "The :attribute may not have more than :max items.",
  },
  between: {
    numeric: "The :attribute must be between :min and :max.",
    string: "The :attribute must be between :min and :max characters.",
    array: "The :attribute must have between :min and :max items.",
  },
  size: {
    numeric: "The :attribute must be :size.",
    string: "The :attribute must be :size characters.",
    array: "The :attribute must contain :size items.",
  },
};

/** Laravel's `Str::snake` of a rule name written in camel case in a rules string (`notIn` → `not_in`). */
function ruleName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** A rules string as Laravel reads it: split on `|`; a regex keeps its commas. */
export function parseRules(rules: string): ParsedRule[] {
  return rules
    .split("|")
    .filter((rule) => rule.trim() !== "")
    .map((rule) => {
      const colon = rule.indexOf(":");
      const name = ruleName(colon === -1 ? rule.trim() : rule.slice(0, colon).trim());
      const raw = colon === -1 ? "" : rule.slice(colon + 1);
      const params =
        colon === -1 ? [] : name === "regex" || name === "not_regex" ? [raw] : raw.split(",");
      return { name, params };
    });
}

/** A PHP PCRE pattern (`/^[\w]+$/i`) as a JavaScript RegExp. */
function phpRegex(pattern: string): RegExp {
  const delimiter = pattern[0] ?? "/";
  const end = pattern.lastIndexOf(delimiter);
  if (end <= 0) throw new Error(`Not a PCRE pattern: ${pattern}`);
  const flags = pattern
    .slice(end + 1)
    .split("")
    .filter((flag) => "imsu".includes(flag))
    .join("");
  return new RegExp(pattern.slice(1, end), flags);
}

function isNumeric(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  return typeof value === "string" && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value);
}

function isInteger(value: unknown): boolean {
  if (typeof value === "number") return Number.isInteger(value);
  return typeof value === "string" && /^[+-]?\d+$/.test(value);
}

function isArrayLike(value: unknown): value is unknown[] | Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

/** The value at a dotted path, and whether the key is there at all (Laravel's `present`). */
export function valueAt(data: unknown, path: string): { present: boolean; value: unknown } {
  let current: unknown = data;
  for (const key of path.split(".")) {
    if (!isArrayLike(current) || !Object.prototype.hasOwnProperty.call(current, key)) {
      return { present: false, value: undefined };
    }
    current = (current as Record<string, unknown>)[key];
  }
  return { present: true, value: current };
}

function expand(data: unknown, field: string): string[] {
  if (!field.endsWith(".*")) return [field];
  const parent = field.slice(0, -2);
  const { value } = valueAt(data, parent);
  if (!isArrayLike(value)) return [];
  return Object.keys(value).map((key) => `${parent}.${key}`);
}

function sizeKind(value: unknown, rules: ParsedRule[]): "numeric" | "string" | "array" {
  if (rules.some((rule) => NUMERIC_RULES.has(rule.name)) && isNumeric(value)) return "numeric";
  if (typeof value === "number") return "numeric";
  if (isArrayLike(value)) return "array";
  return "string";
}

function sizeOf(value: unknown, kind: "numeric" | "string" | "array"): number {
  if (kind === "numeric") return Number(value);
  if (kind === "array") return Object.keys(value as object).length;
  return [...String(value)].length;
}

function passes(rule: ParsedRule, value: unknown, all: ParsedRule[], data: unknown): boolean {
  const kind = sizeKind(value, all);
  const [a = "", b = ""] = rule.params;
  switch (rule.name) {
    case "required":
      return !isEmpty(value);
    case "present":
      return true; // checked by the caller, which knows whether the key is there
    case "required_with":
      return rule.params.every((other) => isEmpty(valueAt(data, other).value)) || !isEmpty(value);
    case "required_without":
      return rule.params.some((other) => !isEmpty(valueAt(data, other).value)) || !isEmpty(value);
    case "string":
      return typeof value === "string";
    case "numeric":
      return isNumeric(value);
    case "integer":
      return isInteger(value);
    case "boolean":
      return [true, false, 0, 1, "0", "1"].includes(value as never);
    case "array":
      return isArrayLike(value);
    case "email":
      return typeof value === "string" && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
    case "in":
      return rule.params.includes(String(value));
    case "not_in":
      return !rule.params.includes(String(value));
    case "regex":
      return (
        (typeof value === "string" || typeof value === "number") && phpRegex(a).test(String(value))
      );
    case "alpha_dash":
      return typeof value === "string" && /^[\p{L}\p{M}\p{N}_-]+$/u.test(value);
    case "alpha_num":
      return typeof value === "string" && /^[\p{L}\p{M}\p{N}]+$/u.test(value);
    case "ip":
      return typeof value === "string" && /^(\d{1,3}\.){3}\d{1,3}$|:/.test(value);
    case "min":
      return sizeOf(value, kind) >= Number(a);
    case "max":
      return sizeOf(value, kind) <= Number(a);
    case "between":
      return sizeOf(value, kind) >= Number(a) && sizeOf(value, kind) <= Number(b);
    case "size":
      return sizeOf(value, kind) === Number(a);
    default:
      throw new Error(`The fake panel does not know the Laravel rule "${rule.name}"`);
  }
}

function message(rule: ParsedRule, attribute: string, kind: "numeric" | "string" | "array") {
  const template = MESSAGES[rule.name];
  if (template === undefined) throw new Error(`No message for the rule "${rule.name}"`);
  const text = typeof template === "string" ? template : template[kind];
  const [a = "", b = ""] = rule.params;
  return text
    .replace(":attribute", attribute)
    .replace(":values", rule.params.join(", "))
    .replace(":size", a)
    .replace(":min", a)
    .replace(":max", rule.name === "max" ? a : b);
}

/** Laravel's displayable attribute: the custom name, else the field with `_` as spaces. */
function displayable(field: string, attribute: string | undefined) {
  return attribute ?? field.replace(/_/g, " ");
}

/**
 * Runs every field's rules against `data` and returns the failures in order (several per field when
 * several non-implicit rules fail, as Laravel does); empty when the data passes.
 */
export function validate(data: unknown, fields: FieldRules[]): RuleFailure[] {
  const failures: RuleFailure[] = [];
  for (const spec of fields) {
    const raw = typeof spec.rules === "string" ? [spec.rules] : spec.rules;
    const custom = raw.filter((rule): rule is CustomRule => typeof rule !== "string");
    const parsed = raw.flatMap((rule) => (typeof rule === "string" ? parseRules(rule) : []));
    for (const field of expand(data, spec.field)) {
      const { present, value } = valueAt(data, field);
      const names = new Set(parsed.map((rule) => rule.name));
      if (names.has("sometimes") && !present) continue;
      const attribute = displayable(field, spec.attribute);
      const blank = typeof value === "string" && value.trim() === "";
      // Laravel runs a non-implicit rule only on a field that is there, not blank, and not a null
      // marked nullable (Validator::isValidatable).
      const runsPlain = present && !blank && !(names.has("nullable") && value === null);
      let failed = false;
      for (const rule of parsed) {
        if (MARKERS.has(rule.name)) continue;
        const implicit = IMPLICIT.has(rule.name);
        if (!implicit && !runsPlain) continue;
        const ok = rule.name === "present" ? present : passes(rule, value, parsed, data);
        if (ok) continue;
        failed = true;
        failures.push({
          field,
          rule: rule.name,
          detail: message(rule, attribute, sizeKind(value, parsed)),
        });
        if (implicit || names.has("bail")) break;
      }
      const stopped =
        failed &&
        (names.has("bail") || failures.some((f) => f.field === field && IMPLICIT.has(f.rule)));
      if (stopped || !runsPlain) continue;
      for (const rule of custom) {
        if (rule.passes(value)) continue;
        failures.push({
          field,
          rule: rule.rule,
          detail: rule.message.replace(":attribute", attribute),
        });
        if (names.has("bail")) break;
      }
    }
  }
  return failures;
}
