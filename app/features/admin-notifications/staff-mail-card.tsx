import { useNavigation } from "react-router";
import { FormCard, FormFields } from "~/components/ui/form-card";
import {
  STAFF_MAIL_CHOICE_LABELS,
  STAFF_MAIL_CHOICES,
  type StaffMailChoice,
} from "~/domain/mail/mail";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";

/** The hint under each choice's switch (admin namespace), written out for the catalogue test. */
const CHOICE_HINTS = {
  staffTicketReplied: "notifications.mail.staffTicketRepliedHint",
} as const satisfies Record<StaffMailChoice, string>;

/**
 * /admin/notifications' email card (docs/mail.md): the staff messages an admin receives only when they
 * ask for them (a customer's reply to a ticket), one switch each, off until ticked. The messages every
 * admin receives (new orders, new tickets) are named, not switched.
 */
export function StaffMailCard({
  receive,
  result,
}: {
  receive: readonly StaffMailChoice[];
  /** The card's last save, when the page's last action was it. */
  result?: { ok: boolean; message: MessageKey } | null;
}) {
  const { t } = useTranslation("admin");
  const message = useMessage();
  const busy = useNavigation().formData?.get("intent") === "staff-mail";
  return (
    <FormCard
      id="staff-mail"
      title={t("notifications.mail.title")}
      description={t("notifications.mail.intro")}
      status={result ? { ok: result.ok, text: message(result.message) } : null}
      busy={busy}
      submit={{ label: t("notifications.mail.save"), busyLabel: t("notifications.mail.saving") }}
    >
      <FormFields
        idPrefix="staff-mail"
        fields={STAFF_MAIL_CHOICES.map((kind) => ({
          kind: "switch" as const,
          name: kind,
          label: t(STAFF_MAIL_CHOICE_LABELS[kind]),
          hint: t(CHOICE_HINTS[kind]),
        }))}
        values={{}}
        errors={{}}
        checked={Object.fromEntries(
          STAFF_MAIL_CHOICES.map((kind) => [kind, receive.includes(kind)]),
        )}
      />
    </FormCard>
  );
}
