import type { TOptions } from "i18next";
import { StatusMessage } from "./status-message";
import { useMessage, type MessageKey } from "~/i18n/use-message";

/**
 * What an action returns to its page: whether it worked, what to say (a message key, translated where it
 * is shown), why it was refused, each field's error and, after a refusal, what was typed so the form shows
 * it again. A page's own result adds what it needs (`interface ProductActionResult extends ActionResult`).
 */
export interface ActionResult {
  ok: boolean;
  message: MessageKey;
  /** The values the message takes, where the result carries them (a refusal's cap). */
  params?: Record<string, string | number>;
  reason?: MessageKey;
  fieldErrors?: Record<string, MessageKey>;
  /** What was typed, to show the form again as it was. */
  values?: Record<string, string>;
}

/**
 * The words of a result: its message (filled with `values`, else the result's own `params`), then the
 * reason for a refusal on a line of its own.
 */
export function ResultText({
  result,
  values,
}: {
  result: Pick<ActionResult, "message" | "reason" | "params">;
  values?: TOptions;
}) {
  const message = useMessage();
  return (
    <>
      {message(result.message, values ?? result.params)}
      {result.reason ? <span className="block">{message(result.reason)}</span> : null}
    </>
  );
}

/**
 * The outcome of an action, green when it worked and red when it was refused. `values` fill the message's
 * placeholders ({{count}}, {{key}}).
 */
export function ResultMessage({
  result,
  values,
}: {
  result: Pick<ActionResult, "ok" | "message" | "reason" | "params">;
  values?: TOptions;
}) {
  return (
    <StatusMessage ok={result.ok}>
      <ResultText result={result} values={values} />
    </StatusMessage>
  );
}
