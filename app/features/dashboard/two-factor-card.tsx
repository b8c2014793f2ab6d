import { Form, useNavigation } from "react-router";
import { TitledCard } from "~/components/ui/card";
import { FormFields, type FieldSpec, type InputSpec } from "~/components/ui/form-card";
import { IntentButton } from "~/components/ui/intent-button";
import { StatusMessage } from "~/components/ui/status-message";
import { MAX_PASSWORD_LENGTH } from "~/domain/accounts/accounts";
import { groupSecret, MAX_CODE_LENGTH, type TwoFactorState } from "~/domain/accounts/two-factor";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { BackupCodes } from "./backup-codes";
import { CardSubmit } from "./card-submit";

/** What the two-factor forms answered (the dashboard's action, `form: "two-factor"`). */
export interface TwoFactorResult {
  ok: boolean;
  form: "two-factor";
  message: MessageKey;
  fieldErrors?: Partial<Record<string, MessageKey>>;
  /** A throttled password check: minutes until it may be tried again. */
  minutes?: number;
  /** The form that answered ("two-factor-disable"), whose fields the errors are of. */
  intent?: string;
  /** New backup codes, shown this once. */
  backupCodes?: string[];
}

/**
 * "Two-factor sign-in" (ADR 0033), on the account tab and on an admin's own page (/admin/account, where
 * an admin who must set it up is sent), under `#two-factor`: off, a password starts the set-up; then the QR code (drawn on the server) and
 * its key as text, and a code from the app turns it on; on, new backup codes or turning it off.
 */
export function TwoFactorCard({
  state,
  result,
}: {
  state: TwoFactorState;
  result?: TwoFactorResult;
}) {
  const { t } = useTranslation("dashboard");
  const message = useMessage();
  const busy = useNavigation().state !== "idle";
  const errorsOf = (intent: string) =>
    result?.intent === intent ? (result.fieldErrors ?? {}) : {};
  const errorValues = { count: result?.minutes };
  /** The fields of the form that posts `intent`, with that form's refusals. */
  const fieldsOf = (intent: string, fields: FieldSpec[]) => (
    <FormFields fields={fields} values={{}} errors={errorsOf(intent)} errorValues={errorValues} />
  );
  const passwordField = (idPrefix: string): FieldSpec => ({
    kind: "input",
    name: "currentPassword",
    id: `${idPrefix}-current-password`,
    label: t("account.currentPassword"),
    type: "password",
    autoComplete: "current-password",
    required: true,
    maxLength: MAX_PASSWORD_LENGTH,
    dir: "ltr",
  });
  const codeField = (idPrefix: string, label: string, hint?: string): InputSpec => ({
    kind: "input",
    name: "code",
    id: `${idPrefix}-code`,
    label,
    hint,
    autoComplete: "one-time-code",
    required: true,
    maxLength: MAX_CODE_LENGTH,
    dir: "ltr",
  });
  return (
    <div id="two-factor" className="scroll-mt-24">
      <TitledCard title={t("twoFactor.title")}>
        <div className="grid gap-4 text-sm">
          <p className="text-muted-foreground">{t("twoFactor.intro")}</p>
          {result ? (
            <StatusMessage ok={result.ok}>{message(result.message, errorValues)}</StatusMessage>
          ) : null}
          {result?.backupCodes?.length ? <BackupCodes codes={result.backupCodes} /> : null}
          {state.status === "off" ? (
            <Form method="post" className="grid gap-3" noValidate>
              <input type="hidden" name="intent" value="two-factor-start" />
              <p data-testid="two-factor-status">{t("twoFactor.off")}</p>
              <p className="text-muted-foreground">{t("twoFactor.startHint")}</p>
              {fieldsOf("two-factor-start", [passwordField("two-factor-start")])}
              <CardSubmit busy={busy}>{t("twoFactor.start")}</CardSubmit>
            </Form>
          ) : null}
          {state.status === "pending" ? (
            <div className="grid gap-3">
              <p>{t("twoFactor.scan")}</p>
              <img
                src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(state.qrSvg)}`}
                alt={t("twoFactor.qrAlt")}
                width={192}
                height={192}
                className="rounded-md border bg-white p-2"
              />
              <div className="grid gap-1">
                <span className="font-medium" id="two-factor-secret-label">
                  {t("twoFactor.secret")}
                </span>
                <code
                  className="w-fit rounded bg-muted px-2 py-1 font-mono text-base break-all"
                  dir="ltr"
                  aria-labelledby="two-factor-secret-label"
                  data-testid="two-factor-secret"
                >
                  {groupSecret(state.secret)}
                </code>
              </div>
              <Form method="post" className="grid gap-3" noValidate>
                <input type="hidden" name="intent" value="two-factor-confirm" />
                {fieldsOf("two-factor-confirm", [
                  {
                    ...codeField(
                      "two-factor-confirm",
                      t("twoFactor.code"),
                      t("twoFactor.codeHint"),
                    ),
                    inputMode: "numeric",
                  },
                ])}
                <CardSubmit busy={busy}>{t("twoFactor.confirm")}</CardSubmit>
              </Form>
              <IntentButton intent="two-factor-cancel" fields={{}} variant="outline">
                {t("twoFactor.cancel")}
              </IntentButton>
            </div>
          ) : null}
          {state.status === "on" ? (
            <>
              <p data-testid="two-factor-status">
                {t("twoFactor.on")} {t("twoFactor.backupLeft", { count: state.backupCodesLeft })}
              </p>
              <Form method="post" className="grid gap-3 border-t pt-4" noValidate>
                <input type="hidden" name="intent" value="two-factor-regenerate" />
                <p className="text-muted-foreground">{t("twoFactor.regenerateHint")}</p>
                {fieldsOf("two-factor-regenerate", [passwordField("two-factor-regenerate")])}
                <CardSubmit busy={busy} variant="outline">
                  {t("twoFactor.regenerate")}
                </CardSubmit>
              </Form>
              <Form method="post" className="grid gap-3 border-t pt-4" noValidate>
                <input type="hidden" name="intent" value="two-factor-disable" />
                <p className="text-muted-foreground">{t("twoFactor.disableHint")}</p>
                {fieldsOf("two-factor-disable", [
                  passwordField("two-factor-disable"),
                  codeField("two-factor-disable", t("twoFactor.disableCode")),
                ])}
                <CardSubmit busy={busy} variant="destructive">
                  {t("twoFactor.disable")}
                </CardSubmit>
              </Form>
            </>
          ) : null}
        </div>
      </TitledCard>
    </div>
  );
}
