import { idField } from "~/lib/id-field";
import { z } from "~/lib/zod";
import { VARIABLE_VALUE_MAX, type ServerActionRequest } from "./server-actions";
import { POWER_SIGNALS } from "./server-control";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md). The forms of a server's page, each by its intent.

/** An egg variable's name as the panel allows it (its EggVariable rule `regex:/^[\w]{1,191}$/`). */
const VARIABLE_NAME = /^\w{1,191}$/;

/**
 * A server's forms: a power signal; a reinstall, which wipes the server's files and so must come with
 * its confirmation ticked (the dialog's hidden field, or the checkbox of the page without JavaScript,
 * both send "on"); one egg variable the panel lets its user edit, with its value (trimmed, as the panel
 * trims it; empty is a value, which a `nullable` variable takes); a new panel password (nothing to
 * send: it is drawn on the server); and the offline notice's switch.
 */
const powerForm = z.object({
  intent: z.literal("power"),
  signal: z.enum(POWER_SIGNALS, { error: "services.server.errors.signal" }),
});
const reinstallForm = z.object({
  intent: z.literal("reinstall"),
  confirm: z.literal("on", { error: "services.server.errors.confirmReinstall" }),
});
const variableForm = z.object({
  intent: z.literal("variable"),
  env: z
    .string({ error: "services.server.errors.variable" })
    .trim()
    .regex(VARIABLE_NAME, "services.server.errors.variable"),
  value: z
    .string({ error: "services.server.errors.valueMissing" })
    .max(VARIABLE_VALUE_MAX, "services.server.errors.valueTooLong")
    .transform((value) => value.trim()),
});
const passwordForm = z.object({ intent: z.literal("password") });
const noticeForm = z.object({
  intent: z.literal("notice"),
  notice: z
    .enum(["on", "off"], { error: "services.server.errors.notice" })
    .transform((value) => value === "on"),
});

export const serverControlSchema = z.discriminatedUnion("intent", [
  powerForm,
  reinstallForm,
  variableForm,
  passwordForm,
  noticeForm,
]);
export type ServerControlInput = z.output<typeof serverControlSchema>;

/**
 * The staff's forms on a service's admin page: power, a game setting, a new panel password. Its
 * reinstall is the panel side's (with the provisioning actions) and the offline notice is the customer's.
 */
export const staffServerControlSchema = z.discriminatedUnion("intent", [
  powerForm,
  variableForm,
  passwordForm,
]);

/** The service of a server's page, from its address: anything else reads as a service not found. */
export const serverServiceIdSchema = idField("services.errors.notFound");

/** What `requestServerAction` is asked, for the forms that ask it (power, reinstall, variable). */
export function serverActionRequestOf(input: ServerControlInput): ServerActionRequest | null {
  switch (input.intent) {
    case "power":
      return { kind: "power", signal: input.signal };
    case "reinstall":
      return { kind: "reinstall" };
    case "variable":
      return { kind: "variable", env: input.env, value: input.value };
    default:
      return null;
  }
}
