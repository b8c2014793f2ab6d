import { PHP_REGEX_MAX_SUBJECT, phpRegex } from "./php-regex";

// An egg's variables: the rules the panel checks their values with, read as Laravel reads them, and the
// values made anew for each server (docs/provisioning.md). Messages are catalogue keys
// ("admin-catalogue.…").

// ─── An egg's variable, as the client reads it (structural: the client's type fits) ───

export interface EggVariable {
  name: string;
  envVariable: string;
  defaultValue: string;
  /** Laravel's validation rules, "|"-separated: "required|string|max:20". */
  rules: string;
  userEditable: boolean;
}

// ─── The egg's rules for its variables ───

/** The rules checked here; any other is the panel's alone, reported as unchecked. */
export const EGG_RULES = [
  "required",
  "nullable",
  "sometimes",
  "bail",
  "string",
  "integer",
  "numeric",
  "boolean",
  "min",
  "max",
  "between",
  "in",
  "regex",
  "digits",
  "digits_between",
  "alpha_num",
  "alpha_dash",
  "url",
] as const;

/** Why a value breaks an egg's rule, with the values its text takes. */
export const EGG_RULE_MESSAGES = {
  required: "admin-catalogue.products.provisioning.rules.required",
  string: "admin-catalogue.products.provisioning.rules.string",
  integer: "admin-catalogue.products.provisioning.rules.integer",
  numeric: "admin-catalogue.products.provisioning.rules.numeric",
  boolean: "admin-catalogue.products.provisioning.rules.boolean",
  minNumber: "admin-catalogue.products.provisioning.rules.minNumber",
  minLength: "admin-catalogue.products.provisioning.rules.minLength",
  maxNumber: "admin-catalogue.products.provisioning.rules.maxNumber",
  maxLength: "admin-catalogue.products.provisioning.rules.maxLength",
  betweenNumber: "admin-catalogue.products.provisioning.rules.betweenNumber",
  betweenLength: "admin-catalogue.products.provisioning.rules.betweenLength",
  in: "admin-catalogue.products.provisioning.rules.in",
  regex: "admin-catalogue.products.provisioning.rules.regex",
  regexBroken: "admin-catalogue.products.provisioning.rules.regexBroken",
  digits: "admin-catalogue.products.provisioning.rules.digits",
  digitsBetween: "admin-catalogue.products.provisioning.rules.digitsBetween",
  alphaNum: "admin-catalogue.products.provisioning.rules.alphaNum",
  alphaDash: "admin-catalogue.products.provisioning.rules.alphaDash",
  url: "admin-catalogue.products.provisioning.rules.url",
} as const;
export type EggRuleMessage = (typeof EGG_RULE_MESSAGES)[keyof typeof EGG_RULE_MESSAGES];
/** The note beside a rule checked by the panel only: "{{variable}}: the panel also checks {{rule}}". */
export const EGG_RULE_UNCHECKED = "admin-catalogue.products.provisioning.rules.unchecked";

export interface EggVariableError {
  envVariable: string;
  /** The rule as the egg writes it, lower case ("max", "regex"). */
  rule: string;
  message: EggRuleMessage;
  values: Record<string, string | number>;
}

export interface UncheckedEggRule {
  envVariable: string;
  /** The rule as the egg writes it, parameters included ("required_if:X,1", a regex we cannot run). */
  rule: string;
}

interface ParsedRule {
  /** Laravel's reading of the name: "digits_between", "DigitsBetween" and "digits-between" are one. */
  key: string;
  name: string;
  parameters: string[];
  raw: string;
}

/**
 * An egg's rules as Laravel reads a rules string: split at every "|" (a "|" inside a regex splits it
 * too, and the panel then fails on that variable), each "name:parameters", parameters comma-separated
 * as CSV but a regex's, which is whole.
 */
function parseRules(rules: string): ParsedRule[] {
  const parsed: ParsedRule[] = [];
  for (const raw of rules.split("|")) {
    const colon = raw.indexOf(":");
    const name = (colon === -1 ? raw : raw.slice(0, colon)).trim();
    if (name === "") continue;
    const key = name.replace(/[-_\s]/g, "").toLowerCase();
    const rest = colon === -1 ? null : raw.slice(colon + 1);
    const parameters =
      rest === null ? [] : key === "regex" || key === "notregex" ? [rest] : csvFields(rest);
    parsed.push({ key, name: name.toLowerCase(), parameters, raw });
  }
  return parsed;
}

/** PHP's str_getcsv, enough for rule parameters: commas, double quotes, "" for a quote. */
function csvFields(text: string): string[] {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (quoted) {
      if (char === '"' && text[at + 1] === '"') {
        field += '"';
        at++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field.trim() === "") {
      quoted = true;
      field = "";
    } else if (char === ",") {
      fields.push(field);
      field = "";
    } else field += char;
  }
  fields.push(field);
  return fields;
}

/** PHP 8's is_numeric: optional white space around, a sign, digits with a point, an exponent. */
function isNumeric(value: string): boolean {
  return /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/.test(value);
}

/** PHP's FILTER_VALIDATE_INT: an optional sign, no leading zero, within 64 bits. */
function isInteger(value: string): boolean {
  const trimmed = value.trim();
  if (!/^[+-]?(0|[1-9]\d*)$/.test(trimmed)) return false;
  const number = BigInt(trimmed);
  return number >= -(2n ** 63n) && number <= 2n ** 63n - 1n;
}

/** PHP 8's == between two strings: numerically when both are numeric, else exactly. */
function looselyEqual(a: string, b: string): boolean {
  if (isNumeric(a) && isNumeric(b)) return Number(a) === Number(b);
  return a === b;
}

/**
 * Laravel's size of a value: the number itself under a numeric rule (numeric, integer) when it is one,
 * else its length in characters (mb_strlen); null counts as empty.
 */
function sizeOf(value: string | null, numericRule: boolean): { size: number; numeric: boolean } {
  if (value !== null && numericRule && isNumeric(value))
    return { size: Number(value), numeric: true };
  return { size: [...(value ?? "")].length, numeric: false };
}

/** A rule's numeric parameter as Laravel trims and compares it, or null when it is none. */
function numberParameter(parameter: string | undefined): number | null {
  if (parameter === undefined || !isNumeric(parameter)) return null;
  return Number(parameter.trim());
}

/** Laravel's url rule, near enough: a scheme, "://", a host, no white space; the panel has the last word. */
function isUrl(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#]+([/?#]\S*)?$/.test(value)) return false;
  try {
    return new URL(value).host !== "";
  } catch {
    return false;
  }
}

type RuleOutcome =
  | { pass: true }
  | { pass: false; message: EggRuleMessage; values?: Record<string, string | number> }
  | { unchecked: true };

const PASS = { pass: true } as const;
const UNCHECKED = { unchecked: true } as const;

function fail(message: EggRuleMessage, values?: Record<string, string | number>): RuleOutcome {
  return values ? { pass: false, message, values } : { pass: false, message };
}

/** One rule on one value as Laravel's validator (10.x) decides it; null is an empty value. */
function checkRule(rule: ParsedRule, value: string | null, numericRule: boolean): RuleOutcome {
  const [first, second] = rule.parameters;
  switch (rule.key) {
    case "required":
      return value === null ? fail(EGG_RULE_MESSAGES.required) : PASS;
    case "nullable":
    case "sometimes":
    case "bail":
      return PASS;
    case "string":
      return value === null ? fail(EGG_RULE_MESSAGES.string) : PASS;
    case "integer":
      return value !== null && isInteger(value) ? PASS : fail(EGG_RULE_MESSAGES.integer);
    case "numeric":
      return value !== null && isNumeric(value) ? PASS : fail(EGG_RULE_MESSAGES.numeric);
    case "boolean":
      // Laravel takes true, false, 0, 1, "0" and "1": a text "true" is refused.
      return value === "0" || value === "1" ? PASS : fail(EGG_RULE_MESSAGES.boolean);
    case "min":
    case "max":
    case "between": {
      const low = rule.key === "max" ? null : numberParameter(first);
      const high = rule.key === "min" ? null : numberParameter(rule.key === "max" ? first : second);
      if ((rule.key !== "max" && low === null) || (rule.key !== "min" && high === null))
        return UNCHECKED;
      const { size, numeric } = sizeOf(value, numericRule);
      if ((low === null || size >= low) && (high === null || size <= high)) return PASS;
      if (rule.key === "min")
        return fail(numeric ? EGG_RULE_MESSAGES.minNumber : EGG_RULE_MESSAGES.minLength, {
          min: low!,
        });
      if (rule.key === "max")
        return fail(numeric ? EGG_RULE_MESSAGES.maxNumber : EGG_RULE_MESSAGES.maxLength, {
          max: high!,
        });
      return fail(numeric ? EGG_RULE_MESSAGES.betweenNumber : EGG_RULE_MESSAGES.betweenLength, {
        min: low!,
        max: high!,
      });
    }
    case "in": {
      const text = value ?? "";
      return rule.parameters.some((allowed) => looselyEqual(text, allowed))
        ? PASS
        : fail(EGG_RULE_MESSAGES.in, { values: rule.parameters.join(", ") });
    }
    case "digits": {
      const digits = numberParameter(first);
      if (digits === null) return UNCHECKED;
      const text = value ?? "";
      return /^[0-9]*$/.test(text) && text.length === digits
        ? PASS
        : fail(EGG_RULE_MESSAGES.digits, { digits });
    }
    case "digitsbetween": {
      const low = numberParameter(first);
      const high = numberParameter(second);
      if (low === null || high === null) return UNCHECKED;
      const text = value ?? "";
      return /^[0-9]*$/.test(text) && text.length >= low && text.length <= high
        ? PASS
        : fail(EGG_RULE_MESSAGES.digitsBetween, { min: low, max: high });
    }
    case "alphanum":
    case "alphadash": {
      const ascii = first === "ascii";
      const dash = rule.key === "alphadash";
      const pattern = ascii
        ? dash
          ? /^[a-zA-Z0-9_-]+$/
          : /^[a-zA-Z0-9]+$/
        : dash
          ? /^[\p{L}\p{M}\p{N}_-]+$/u
          : /^[\p{L}\p{M}\p{N}]+$/u;
      if (value !== null && pattern.test(value)) return PASS;
      return fail(dash ? EGG_RULE_MESSAGES.alphaDash : EGG_RULE_MESSAGES.alphaNum);
    }
    case "url":
      return value !== null && isUrl(value) ? PASS : fail(EGG_RULE_MESSAGES.url);
    case "regex": {
      const pattern = phpRegex(first ?? "");
      if (!pattern.ok)
        return pattern.reason === "broken"
          ? fail(EGG_RULE_MESSAGES.regexBroken, { pattern: first ?? "" })
          : UNCHECKED;
      if (value === null) return fail(EGG_RULE_MESSAGES.regex, { pattern: first ?? "" });
      if (value.length > PHP_REGEX_MAX_SUBJECT) return UNCHECKED;
      return pattern.matches(value)
        ? PASS
        : fail(EGG_RULE_MESSAGES.regex, { pattern: first ?? "" });
    }
    default:
      return UNCHECKED;
  }
}

/**
 * An egg's variables checked as the panel checks them when a server is created (its
 * VariableValidatorService, at admin level: every variable, editable or not), against the values a
 * product gives (a variable left out takes the egg's default). The panel trims each value and reads an
 * empty one as null: only `required` looks at an empty value when the rules say `nullable`, and without
 * `nullable` most rules refuse it (an empty value is no string). A failed `required` ends a variable's
 * checks, as `bail` ends them at its first failure. A rule checked by the panel alone is listed in
 * `unchecked`, so the admin knows the panel may still refuse.
 */
export function validateEggVariables(
  variables: readonly EggVariable[],
  values: Readonly<Record<string, string>>,
): { ok: boolean; errors: EggVariableError[]; unchecked: UncheckedEggRule[] } {
  const errors: EggVariableError[] = [];
  const unchecked: UncheckedEggRule[] = [];
  for (const variable of variables) {
    const given = Object.hasOwn(values, variable.envVariable)
      ? values[variable.envVariable]!
      : variable.defaultValue;
    const trimmed = given.trim();
    const value = trimmed === "" ? null : trimmed;
    const rules = parseRules(variable.rules);
    const keys = new Set(rules.map((rule) => rule.key));
    const nullable = keys.has("nullable");
    const numericRule = keys.has("numeric") || keys.has("integer");
    for (const rule of rules) {
      // Laravel skips every rule but an implicit one (required) on a null value marked nullable.
      if (value === null && nullable && rule.key !== "required") continue;
      const outcome = checkRule(rule, value, numericRule);
      if ("unchecked" in outcome) {
        unchecked.push({ envVariable: variable.envVariable, rule: rule.raw.trim() });
        continue;
      }
      if (outcome.pass) continue;
      errors.push({
        envVariable: variable.envVariable,
        rule: rule.name,
        message: outcome.message,
        values: outcome.values ?? {},
      });
      if (rule.key === "required" || keys.has("bail")) break;
    }
  }
  return { ok: errors.length === 0, errors, unchecked };
}

// ─── Values made for each server ───

/**
 * The product form's switch that makes a variable's value anew for each server: "generate.RCON_PASS".
 * A product's own values are the same for every server it makes; an RCON or admin password shared by
 * every customer of a plan would let each of them into the others' servers (their addresses are public
 * on the server lists), so such a variable takes a fresh random value at each create instead.
 */
export const GENERATE_FIELD_PREFIX = "generate.";

export function generateFieldName(envVariable: string): string {
  return `${GENERATE_FIELD_PREFIX}${envVariable}`;
}

/** What a generated value is made of: letters and digits, which every string rule we know takes. */
export const GENERATED_VALUE_ALPHABET =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const GENERATED_VALUE_LENGTH = 16;
/**
 * A value of the generated kind, to check an egg's rules against before a product is saved: a real
 * one is random, so rules are checked on one that has every class of character a real one may have.
 */
export const GENERATED_VALUE_SAMPLE = "Hf7kQ2mZ9xLp4RtB";

/** Egg variables whose switch starts on when an egg is chosen: remote-admin passwords. */
const SECRET_VARIABLE = /RCON|ADMIN_?PASS/i;

export function isSecretVariable(envVariable: string): boolean {
  return SECRET_VARIABLE.test(envVariable);
}

/**
 * A fresh value for each generated variable, drawn with `randomIndex(n)` (an integer in [0, n): the
 * server's crypto.randomInt), without modulo bias since the alphabet's length is the bound.
 */
export function generatedEnvironment(
  names: readonly string[],
  randomIndex: (bound: number) => number,
): Record<string, string> {
  return Object.fromEntries(
    names.map((name) => {
      let value = "";
      for (let index = 0; index < GENERATED_VALUE_LENGTH; index++)
        value += GENERATED_VALUE_ALPHABET[randomIndex(GENERATED_VALUE_ALPHABET.length)];
      return [name, value];
    }),
  );
}

/** Whether a variable's rules take a generated value, so its switch is worth offering. */
export function acceptsGeneratedValue(variable: EggVariable): boolean {
  return validateEggVariables([variable], { [variable.envVariable]: GENERATED_VALUE_SAMPLE }).ok;
}
