import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { TitledCard } from "~/components/ui/card";
import { useBusy } from "~/components/ui/use-busy";
import {
  SERVER_ACTION_LABELS,
  SERVER_REFUSAL_LABELS,
  type ServerRefusal,
} from "~/domain/servers/server-control";
import { useTranslation } from "~/i18n/use-translation";
import { AnswerMessage } from "./server-answer-message";
import type { ServerAnswer } from "./server-answers";
import { ConfirmButton } from "./server-confirm";

// Power and reinstall: plain post forms (they work without scripts), disabled with the server's refusal
// in words while it refuses them (suspended, installing, not on the panel yet).

/** Why the buttons are disabled, said once above them and named by each (aria-describedby). */
function Refusal({ id, refusal }: { id: string; refusal: ServerRefusal }) {
  const { t } = useTranslation("services");
  return (
    <p id={id} className="text-sm text-red-700" data-testid={id}>
      {t(SERVER_REFUSAL_LABELS[refusal])}
    </p>
  );
}

/** Start and restart: one click, one post. */
function SignalForm({
  signal,
  pagePath,
  disabled,
  describedBy,
}: {
  signal: "start" | "restart";
  pagePath: string;
  disabled: boolean;
  describedBy?: string;
}) {
  const { t } = useTranslation("services");
  return (
    <Form method="post" action={pagePath}>
      <input type="hidden" name="intent" value="power" />
      <input type="hidden" name="signal" value={signal} />
      <Button
        type="submit"
        size="sm"
        variant={signal === "start" ? "default" : "outline"}
        disabled={disabled}
        aria-describedby={describedBy}
      >
        {t(SERVER_ACTION_LABELS[signal])}
      </Button>
    </Form>
  );
}

export function PowerControls({
  pagePath,
  serverName,
  refusal,
  answer,
}: {
  pagePath: string;
  serverName: string;
  refusal: ServerRefusal | null;
  answer?: ServerAnswer;
}) {
  const { t } = useTranslation("services");
  const busy = useBusy();
  const describedBy = refusal ? "server-power-refusal" : undefined;
  const disabled = refusal !== null;
  return (
    <TitledCard title={t("server.power.title")} contentClassName="grid gap-3">
      {refusal ? <Refusal id="server-power-refusal" refusal={refusal} /> : null}
      <div className="flex flex-wrap gap-2" data-testid="server-power">
        <SignalForm
          signal="start"
          pagePath={pagePath}
          disabled={disabled || busy}
          describedBy={describedBy}
        />
        <SignalForm
          signal="restart"
          pagePath={pagePath}
          disabled={disabled || busy}
          describedBy={describedBy}
        />
        <ConfirmButton
          kind="stop"
          pagePath={pagePath}
          serverName={serverName}
          disabled={disabled}
          describedBy={describedBy}
        >
          {t(SERVER_ACTION_LABELS.stop)}
        </ConfirmButton>
        <ConfirmButton
          kind="kill"
          pagePath={pagePath}
          serverName={serverName}
          disabled={disabled}
          describedBy={describedBy}
          variant="destructive"
        >
          {t(SERVER_ACTION_LABELS.kill)}
        </ConfirmButton>
      </div>
      <p className="text-sm text-muted-foreground">{t("server.power.help")}</p>
      {answer?.form === "power" ? <AnswerMessage answer={answer} /> : null}
    </TitledCard>
  );
}

/** Reinstall: what it does to the files, said before the button and again in its confirmation. */
export function ReinstallControl({
  pagePath,
  serverName,
  refusal,
  answer,
}: {
  pagePath: string;
  serverName: string;
  refusal: ServerRefusal | null;
  answer?: ServerAnswer;
}) {
  const { t } = useTranslation("services");
  const describedBy = refusal ? "server-reinstall-refusal" : undefined;
  return (
    <TitledCard title={t("server.reinstall.title")} contentClassName="grid gap-3">
      <p className="text-sm">{t("server.reinstall.text")}</p>
      {refusal ? <Refusal id="server-reinstall-refusal" refusal={refusal} /> : null}
      <div>
        <ConfirmButton
          kind="reinstall"
          pagePath={pagePath}
          serverName={serverName}
          disabled={refusal !== null}
          describedBy={describedBy}
          variant="destructive"
        >
          {t(SERVER_ACTION_LABELS.reinstall)}
        </ConfirmButton>
      </div>
      {answer?.form === "reinstall" ? <AnswerMessage answer={answer} /> : null}
    </TitledCard>
  );
}
