import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { TitledCard } from "~/components/ui/card";
import { useBusy } from "~/components/ui/use-busy";
import { useTranslation } from "~/i18n/use-translation";
import { AnswerMessage } from "./server-answer-message";
import type { ServerAnswer } from "./server-answers";

/**
 * The customer's "tell me when my server has been offline for 10 minutes": what it is now, and a button
 * that turns it the other way (a plain post, as the services tab's automatic renewal is).
 */
export function OfflineNoticeSwitch({
  on,
  pagePath,
  answer,
}: {
  on: boolean;
  pagePath: string;
  answer?: ServerAnswer;
}) {
  const { t } = useTranslation("services");
  const busy = useBusy();
  return (
    <TitledCard title={t("server.notice.title")} contentClassName="grid gap-3">
      <Form method="post" action={pagePath} className="flex flex-wrap items-center gap-2 text-sm">
        <input type="hidden" name="intent" value="notice" />
        <input type="hidden" name="notice" value={on ? "off" : "on"} />
        <span data-testid="server-notice">
          {on ? t("server.notice.on") : t("server.notice.off")}
        </span>
        <Button type="submit" size="sm" variant="outline" disabled={busy}>
          {on ? t("server.notice.turnOff") : t("server.notice.turnOn")}
        </Button>
      </Form>
      {answer?.form === "notice" ? <AnswerMessage answer={answer} /> : null}
    </TitledCard>
  );
}
