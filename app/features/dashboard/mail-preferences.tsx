import { Form, useNavigation } from "react-router";
import { TitledCard } from "~/components/ui/card";
import { FormFields } from "~/components/ui/form-card";
import { ResultMessage } from "~/components/ui/result-message";
import {
  OPTIONAL_MAIL_KINDS,
  OPTIONAL_MAIL_LABELS,
  type OptionalMailKind,
} from "~/domain/mail/mail";
import { CardSubmit } from "./card-submit";
import { useTranslation } from "~/i18n/use-translation";
import type { MessageKey } from "~/i18n/use-message";

export interface MailPreferencesResult {
  ok: boolean;
  form: "mail";
  message: MessageKey;
}

/**
 * The account tab's email card (docs/mail.md): one switch per kind of message the customer may turn
 * off; security mail (password reset, verification, sign-in notices) is not listed, it always goes out.
 */
export function MailPreferencesCard({
  receive,
  result,
}: {
  receive: readonly OptionalMailKind[];
  result?: MailPreferencesResult;
}) {
  const { t } = useTranslation("dashboard");
  const busy = useNavigation().state !== "idle";
  return (
    <TitledCard title={t("account.mail.title")}>
      <Form method="post" className="grid gap-3">
        <input type="hidden" name="intent" value="mail-preferences" />
        <p className="text-sm text-muted-foreground">{t("account.mail.intro")}</p>
        {result ? <ResultMessage result={result} /> : null}
        <FormFields
          idPrefix="mail"
          fields={OPTIONAL_MAIL_KINDS.map((kind) => ({
            kind: "switch" as const,
            name: kind,
            label: t(OPTIONAL_MAIL_LABELS[kind]),
          }))}
          values={{}}
          errors={{}}
          checked={Object.fromEntries(
            OPTIONAL_MAIL_KINDS.map((kind) => [kind, receive.includes(kind)]),
          )}
        />
        <p className="text-xs text-muted-foreground">{t("account.mail.security")}</p>
        <CardSubmit busy={busy}>{t("account.mail.save")}</CardSubmit>
      </Form>
    </TitledCard>
  );
}
