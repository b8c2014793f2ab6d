import { PencilIcon } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Form } from "react-router";
import { useBusy } from "~/components/ui/use-busy";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { DialogFormButtons, DialogShell } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { FormFields } from "~/components/ui/form-card";
import { PasswordInput } from "~/components/ui/password-input";
import { ResultMessage } from "~/components/ui/result-message";
import { Link } from "~/components/ui/link";
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH } from "~/domain/accounts/accounts";
import type { ClientActionResult, ClientRow } from "./client-shared";
import { CoinAdjustForm } from "./coin-adjust-form";
import { useMessage } from "~/i18n/use-message";

type Intent = ClientActionResult["intent"];

/**
 * A dialog whose form posts to the page's action: it closes when its action succeeds (the page shows the
 * message) and shows a refusal inside while it stays open. A refusal from before it was opened is not shown.
 */
function useActionDialog(result: ClientActionResult | undefined, intent: Intent) {
  const [open, setOpen] = useState(false);
  const [handled, setHandled] = useState(result);
  const [dismissed, setDismissed] = useState(result);
  if (result !== handled) {
    setHandled(result);
    if (result?.ok && result.intent === intent) setOpen(false);
  }
  const refusal =
    result && !result.ok && result.intent === intent && result !== dismissed ? result : undefined;
  const onOpenChange = (next: boolean) => {
    setDismissed(result);
    setOpen(next);
  };
  return { open, onOpenChange, refusal };
}

export function CoinsDialog({
  user,
  idempotencyKey,
  locale,
  proof,
  result,
}: {
  user: ClientRow;
  idempotencyKey: string;
  locale: string;
  /** Whether the session's proof of identity is fresh, and above how many coins a change asks for one. */
  proof: { fresh: boolean; thresholdCoins: number };
  result?: ClientActionResult;
}) {
  const { t } = useTranslation("coins");
  const { t: tAdmin } = useTranslation("admin");
  const { open, onOpenChange, refusal } = useActionDialog(result, "coins");
  return (
    <DialogShell
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        <Button
          variant="link"
          size="sm"
          // A link in looks, a target of 24 px on a phone (WCAG 2.2) in size.
          className="h-auto min-h-6 justify-start p-0 text-xs"
          aria-label={t("admin.adjustFor", { name: user.name })}
        >
          {t("admin.adjust")}
        </Button>
      }
      closeLabel={tAdmin("users.close")}
      title={t("admin.adjustFor", { name: user.name })}
      description={user.email}
      descriptionProps={{ dir: "ltr" }}
    >
      {refusal ? <ResultMessage result={refusal} /> : null}
      <CoinAdjustForm
        userId={user.id}
        idempotencyKey={idempotencyKey}
        name={user.name}
        balanceCents={user.coinBalanceCents}
        locale={locale}
        proof={proof}
        refusal={refusal}
      />
    </DialogShell>
  );
}

export function EditUserDialog({
  user,
  self,
  staffLink,
  result,
}: {
  user: ClientRow;
  self: boolean;
  /** The acting member may manage the staff: the form links to the Staff page, where roles are given. */
  staffLink: boolean;
  result?: ClientActionResult;
}) {
  const { t } = useTranslation("admin");
  const { t: tAuth } = useTranslation("auth");
  const message = useMessage();
  const busy = useBusy();
  const { open, onOpenChange, refusal } = useActionDialog(result, "update");
  const errors = refusal?.fieldErrors ?? {};
  const error = (field: string) => message(errors[field]);
  const id = (field: string) => `edit-${user.id}-${field}`;
  return (
    <DialogShell
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        <Button variant="outline" size="sm" aria-label={t("users.editFor", { name: user.name })}>
          <PencilIcon aria-hidden />
          {t("users.edit")}
        </Button>
      }
      closeLabel={t("users.close")}
      title={t("users.editFor", { name: user.name })}
      description={t("users.editText")}
    >
      {refusal ? <ResultMessage result={refusal} /> : null}
      <Form method="post" className="grid gap-4" noValidate>
        <input type="hidden" name="intent" value="update" />
        <input type="hidden" name="userId" value={user.id} />
        <FormFields
          idPrefix={`edit-${user.id}`}
          errors={errors}
          fields={[
            {
              kind: "input",
              name: "name",
              label: t("users.name"),
              defaultValue: user.name,
              required: true,
              maxLength: MAX_NAME_LENGTH,
              autoComplete: "off",
            },
            {
              kind: "input",
              name: "email",
              label: t("users.email"),
              type: "email",
              dir: "ltr",
              defaultValue: user.email,
              required: true,
              maxLength: MAX_EMAIL_LENGTH,
              autoComplete: "off",
            },
          ]}
        />
        <Field id={id("password")} label={t("users.password")} error={error("password")}>
          <PasswordInput
            id={id("password")}
            name="password"
            autoComplete="new-password"
            maxLength={MAX_PASSWORD_LENGTH}
            aria-describedby={id("password-hint")}
            showLabel={tAuth("showPassword")}
            hideLabel={tAuth("hidePassword")}
          />
          <p id={id("password-hint")} className="text-sm text-muted-foreground">
            {t(self ? "users.passwordHintSelf" : "users.passwordHint")}
          </p>
        </Field>
        {staffLink ? (
          // Who is on the staff, and with what role, is the Staff page's (only there are its rules).
          <p className="text-sm text-muted-foreground">
            <Link className="text-primary underline-offset-4 hover:underline" to="/admin/staff">
              {t("users.staffRoles")}
            </Link>
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <DialogFormButtons cancel={t("users.cancel")} submit={t("users.save")} busy={busy} />
        </div>
      </Form>
    </DialogShell>
  );
}

// What each confirmed action on an account says (admin namespace), keys written out (docs/i18n.md).
const CONFIRM_TEXTS = {
  delete: {
    trigger: "users.delete",
    triggerFor: "users.deleteFor",
    title: "users.deleteTitle",
    text: "users.deleteText",
    confirm: "users.deleteConfirm",
  },
  "complete-deletion": {
    trigger: "users.completeDeletion",
    triggerFor: "users.completeDeletionFor",
    title: "users.completeDeletionTitle",
    text: "users.completeDeletionText",
    confirm: "users.completeDeletion",
  },
} as const;

/**
 * An action on one account that asks first, in its words (CONFIRM_TEXTS): delete it, or complete the
 * deletion its owner asked for (ADR 19). It posts the intent and the account, and stays open on a
 * refusal, which it shows.
 */
export function ConfirmAccountDialog({
  intent,
  user,
  result,
}: {
  intent: keyof typeof CONFIRM_TEXTS;
  user: ClientRow;
  result?: ClientActionResult;
}) {
  const { t } = useTranslation("admin");
  const { open, onOpenChange, refusal } = useActionDialog(result, intent);
  const texts = CONFIRM_TEXTS[intent];
  // Delete is an icon only in the table (the name says it), words on the phone's cards.
  const iconOnly = intent === "delete";
  return (
    <ConfirmDialog
      fields={{ intent, userId: user.id }}
      labels={{
        trigger: iconOnly ? (
          <span className="md:sr-only">{t(texts.trigger)}</span>
        ) : (
          t(texts.trigger)
        ),
        triggerFor: t(texts.triggerFor, { name: user.name }),
        title: t(texts.title, { name: user.name }),
        text: t(texts.text, { email: user.email }),
        confirm: t(texts.confirm),
        cancel: t("users.cancel"),
        close: t("users.close"),
      }}
      state={{ open, onOpenChange }}
      triggerClassName={iconOnly ? "md:w-9 md:px-0" : undefined}
    >
      {refusal ? <ResultMessage result={refusal} /> : null}
    </ConfirmDialog>
  );
}
