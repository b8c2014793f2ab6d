import { Form, useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import { TitledCard } from "~/components/ui/card";
import { Field, fieldAria } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { IntentButton } from "~/components/ui/intent-button";
import { ResultMessage } from "~/components/ui/result-message";
import type { PendingDeletion } from "~/domain/accounts/account-deletion";
import { MAX_PASSWORD_LENGTH } from "~/domain/accounts/accounts";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { dateTimeFormat } from "~/lib/intl-format";
import { CardSubmit } from "./card-submit";

/** What the deletion forms answered (the dashboard's action, `form: "deletion"`). */
export interface DeletionResult {
  ok: boolean;
  message: MessageKey;
  fieldErrors?: Partial<Record<string, MessageKey>>;
  /** A throttled password check: minutes until it may be tried again. */
  minutes?: number;
}

/**
 * The account tab's "Delete my account" (ADR 19): what deletion erases and keeps, then either the form
 * that asks for it (confirmed with the current password) or the pending request and the way to cancel it.
 */
export function AccountDeletionCard({
  pending,
  locale,
  result,
}: {
  pending: PendingDeletion | null;
  locale: string;
  result?: DeletionResult;
}) {
  const { t } = useTranslation("dashboard");
  const message = useMessage();
  const busy = useNavigation().state !== "idle";
  const tr = (key: MessageKey) => message(key, { count: result?.minutes });
  const error = result?.fieldErrors?.currentPassword;
  const date = dateTimeFormat(locale, { dateStyle: "long" });
  return (
    <TitledCard title={t("deletion.title")}>
      <div className="grid gap-3 text-sm" id="delete-account">
        {result ? <ResultMessage result={result} values={{ count: result.minutes }} /> : null}
        {pending ? (
          <>
            <p data-testid="deletion-pending">
              {t("deletion.pending", { date: date.format(new Date(pending.requestedAt)) })}
            </p>
            <IntentButton intent="cancel-deletion" fields={{}} variant="outline">
              {t("deletion.cancel")}
            </IntentButton>
          </>
        ) : (
          <>
            <p>{t("deletion.intro")}</p>
            <p>{t("deletion.outstanding")}</p>
            <p>{t("deletion.coins")}</p>
            <Link to="/privacy" className="w-fit font-medium text-primary hover:underline">
              {t("deletion.privacyLink")}
            </Link>
            <Form method="post" className="grid gap-3" noValidate>
              <input type="hidden" name="intent" value="request-deletion" />
              <Field
                id="deletion-password"
                label={t("deletion.password")}
                hint={t("deletion.passwordHint")}
                error={error ? tr(error) : undefined}
              >
                <Input
                  id="deletion-password"
                  name="currentPassword"
                  type="password"
                  autoComplete="current-password"
                  required
                  maxLength={MAX_PASSWORD_LENGTH}
                  dir="ltr"
                  {...fieldAria("deletion-password", error ? tr(error) : undefined, {
                    hint: true,
                  })}
                />
              </Field>
              <CardSubmit busy={busy} variant="destructive">
                {t("deletion.submit")}
              </CardSubmit>
            </Form>
          </>
        )}
      </div>
    </TitledCard>
  );
}
