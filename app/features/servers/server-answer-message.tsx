import { StatusMessage } from "~/components/ui/status-message";
import { SERVER_REFUSAL_LABELS } from "~/domain/servers/server-control";
import { useMessage } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import type { ServerAnswer } from "./server-answers";

/**
 * What the action answered, in the section whose form asked: green when it was taken, red with the
 * server's refusal (suspended, installing, too many) or the form's message.
 */
export function AnswerMessage({ answer }: { answer: ServerAnswer }) {
  const { t } = useTranslation("services");
  const message = useMessage();
  return (
    <StatusMessage ok={answer.ok}>
      {answer.refusal
        ? t(SERVER_REFUSAL_LABELS[answer.refusal])
        : answer.message
          ? message(answer.message)
          : null}
    </StatusMessage>
  );
}
