import { labelKeys, messageKeys } from "~/lib/label-keys";
import type { EggRuleMessage } from "~/domain/provisioning/egg-variables";
import type { PowerSignal, SERVER_REFUSAL_LABELS } from "./server-control";

// What is asked of a server and how it ends (docs/server-control.md, "Actions"): the words the jobs write
// into `server_actions` and the card reads back, safe in the browser.

/** What a customer or an admin asks of a server through `requestServerAction`. */
export type ServerActionRequest =
  | { kind: "power"; signal: PowerSignal }
  | { kind: "reinstall" }
  | { kind: "variable"; env: string; value: string };

/**
 * Why an action that was queued did not happen (`server_actions.error`, a key of the services
 * namespace, as SERVER_REFUSAL_LABELS' are): the panel or its node did not answer after the retries,
 * the panel refused, the server is gone from it, the value was refused there, the server was busy with
 * something the panel does not name to us, a newer power signal replaced this one, or the reinstall's
 * install failed.
 */
export const SERVER_ACTION_FAILURES = [
  "unreachable",
  "nodeDown",
  "panelError",
  "notFound",
  "valueRefused",
  "busy",
  "superseded",
  "installFailed",
] as const;
export type ServerActionFailure = (typeof SERVER_ACTION_FAILURES)[number];
export const SERVER_ACTION_FAILURE_LABELS = labelKeys(
  "services",
  "server.failed",
  SERVER_ACTION_FAILURES,
);

/** What `server_actions.error` holds: a failure's key or a refusal's (both of the services namespace). */
export type ServerActionError =
  | (typeof SERVER_ACTION_FAILURE_LABELS)[ServerActionFailure]
  | (typeof SERVER_REFUSAL_LABELS)[keyof typeof SERVER_REFUSAL_LABELS];

/**
 * A variable's value refused by the egg's rules, in a customer's words (the product editor's say "the
 * egg", which a customer does not know): one message per rule message of egg-variables.ts.
 */
const VARIABLE_RULES = [
  "required",
  "string",
  "integer",
  "numeric",
  "boolean",
  "minNumber",
  "minLength",
  "maxNumber",
  "maxLength",
  "betweenNumber",
  "betweenLength",
  "in",
  "regex",
  "regexBroken",
  "digits",
  "digitsBetween",
  "alphaNum",
  "alphaDash",
  "url",
] as const;
export const VARIABLE_RULE_ERRORS = messageKeys("services", "server.variableRule", VARIABLE_RULES);

/** The customer's message for an egg rule's message key (the key's last part names the rule). */
export function variableRuleError(message: EggRuleMessage): string {
  const rule = message.slice(message.lastIndexOf(".") + 1) as (typeof VARIABLE_RULES)[number];
  return VARIABLE_RULE_ERRORS[rule] ?? VARIABLE_RULE_ERRORS.required;
}

/** The longest value a variable may be sent (the panel keeps it as text; a form sends no novel). */
export const VARIABLE_VALUE_MAX = 1_000;

/**
 * A new game panel password: letters and digits, which the panel takes (its Application API asks only
 * for a string) and which a customer can copy and type; 20 of 62 characters are about 119 bits.
 */
export const PANEL_PASSWORD_ALPHABET =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const PANEL_PASSWORD_LENGTH = 20;

/**
 * A password drawn with `randomIndex(n)` (an integer in [0, n): the server's crypto.randomInt), the
 * alphabet's length as the bound, so without bias.
 */
export function drawPanelPassword(randomIndex: (bound: number) => number): string {
  let password = "";
  for (let index = 0; index < PANEL_PASSWORD_LENGTH; index++)
    password += PANEL_PASSWORD_ALPHABET[randomIndex(PANEL_PASSWORD_ALPHABET.length)];
  return password;
}
