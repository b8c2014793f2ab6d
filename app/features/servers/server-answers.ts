import { SERVER_REFUSALS, type ServerRefusal } from "~/domain/servers/server-control";
import type { ServerControlInput } from "~/domain/servers/server-control.schemas";
import type { MessageKey } from "~/i18n/use-message";
import type { FailureKind } from "~/lib/result";

// What a server page's action answers (the customer's and the staff's alike), shown in the section
// whose form asked: a power signal, a reinstall, a variable, a new panel password, the offline notice.

export type ServerForm = "power" | "reinstall" | "variable" | "password" | "notice";

export interface ServerAnswer {
  ok: boolean;
  form: ServerForm;
  /** What to say (a domain's or a form's message key), unless `refusal` says it. */
  message?: MessageKey;
  /** Why the server refuses it now (services:server.refused.*). */
  refusal?: ServerRefusal;
  /** The variable a variable's form was about, with its field's error and what was typed. */
  env?: string;
  fieldErrors?: Record<string, MessageKey>;
  values?: Record<string, string>;
  /** A new panel password, shown once (the answer to that post alone; never stored). */
  password?: string;
  username?: string | null;
}

/** The message that says a form worked, for each form. */
export const ASKED: Record<ServerForm, MessageKey> = {
  power: "services.server.asked.power",
  reinstall: "services.server.asked.reinstall",
  variable: "services.server.asked.variable",
  password: "services.server.asked.password",
  notice: "services.server.asked.notice",
};

/** The answer that a signal, a reinstall, a variable (`env`) or the notice was taken. */
export function askedAnswer(form: Exclude<ServerForm, "password">, env?: string): ServerAnswer {
  return { ok: true, form, message: ASKED[form], ...(env ? { env } : {}) };
}

/** A refusal of the domain's (any of the server's use-cases), as the form that asked shows it. */
export function refusedAnswer(
  form: ServerForm,
  result: {
    kind: FailureKind;
    error: string;
    refusal?: ServerRefusal;
    fieldErrors?: Record<string, string>;
  },
  extra: Pick<ServerAnswer, "env" | "values"> = {},
): ServerAnswer {
  const refusal =
    result.refusal && (SERVER_REFUSALS as readonly string[]).includes(result.refusal)
      ? result.refusal
      : undefined;
  return {
    ok: false,
    form,
    ...(refusal ? { refusal } : { message: result.error as MessageKey }),
    ...(result.fieldErrors
      ? { fieldErrors: result.fieldErrors as Record<string, MessageKey> }
      : {}),
    ...extra,
  };
}

/** A form that did not parse: its first field's message, in the form it came from when it says so. */
export function unparsedAnswer(
  intent: unknown,
  fieldErrors: Record<string, MessageKey>,
  values: Record<string, string>,
): ServerAnswer {
  const form: ServerForm =
    intent === "reinstall" || intent === "variable" || intent === "password" || intent === "notice"
      ? intent
      : "power";
  return {
    ok: false,
    form,
    message: Object.values(fieldErrors)[0] ?? "common.errors.invalid",
    fieldErrors,
    ...(form === "variable" ? { env: values.env, values } : {}),
  };
}

/** What a posted form's outcome (`runServerForm`'s) says, in the section whose form asked. */
export function answerOf(
  posted: ServerControlInput,
  outcome:
    { ok: true; password?: string; username?: string | null } | Parameters<typeof refusedAnswer>[1],
): ServerAnswer {
  const env = posted.intent === "variable" ? posted.env : undefined;
  if (!("kind" in outcome))
    return posted.intent === "password"
      ? {
          ok: true,
          form: "password",
          message: ASKED.password,
          password: outcome.password,
          username: outcome.username ?? null,
        }
      : askedAnswer(posted.intent, env);
  return refusedAnswer(posted.intent, outcome, {
    env,
    values: posted.intent === "variable" ? { env: posted.env, value: posted.value } : undefined,
  });
}
