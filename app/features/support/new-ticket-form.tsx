import { useTranslation } from "~/i18n/use-translation";
import { Form, useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { FormAlert, FormFields, type FieldSpec } from "~/components/ui/form-card";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import {
  DEPARTMENT_LABELS,
  DEPARTMENTS,
  PRIORITIES,
  PRIORITY_LABELS,
} from "~/domain/tickets/tickets";
import type { HostingService } from "~/domain/hosting-services/hosting-services";
import { VERIFY_EMAIL_PATH } from "~/domain/accounts/email-verification";
import { TicketFilesField } from "./ticket-files-field";
import { ArticleSuggestions, useArticleSuggestions } from "./article-suggestions";

export function NewTicketForm({
  ticketsOpen,
  idempotencyKey,
  defaults,
  services,
  state,
}: {
  /** The admin's tickets switch: closed, the page says so instead of showing the form. */
  ticketsOpen: boolean;
  /** The form's key, made by the server: sent twice, it opens one ticket. */
  idempotencyKey: string;
  defaults: { department: string; subject: string; message: string };
  services: Pick<HostingService, "id" | "name" | "serverName">[];
  state?: {
    fieldErrors?: Record<string, MessageKey>;
    formError?: MessageKey;
    /** The count the form's message names (the wait of a limit), if any. */
    formErrorCount?: number;
    values?: Record<string, string>;
    /** Refused until the address is verified: the way to confirm it is shown with the message. */
    verifyEmail?: boolean;
    /** A file refused by the server: which, and why (what was typed is in `values`). */
    filesError?: { message: MessageKey; params?: Record<string, string | number> };
  };
}) {
  const { t } = useTranslation("tickets");
  const { t: tCommon } = useTranslation("common");
  const message = useMessage();
  const submitting = useNavigation().state !== "idle";
  const suggestions = useArticleSuggestions();
  const values: Record<string, string | undefined> = {
    priority: "medium",
    serviceId: "",
    ...defaults,
    ...state?.values,
  };
  if (!ticketsOpen)
    return (
      <main className="mx-auto grid max-w-2xl gap-4 px-4 py-10">
        <h1 className="text-3xl font-bold">{t("new.closedHeading")}</h1>
        <p role="status" className="rounded-md bg-muted p-4">
          {t("new.closedText")}
        </p>
        <Link to="/dashboard/support" className="text-primary hover:underline">
          {t("thread.back")}
        </Link>
      </main>
    );
  const fields: FieldSpec[] = [
    {
      kind: "row",
      className: "grid gap-4 sm:grid-cols-2",
      fields: [
        {
          kind: "select",
          name: "department",
          label: t("new.department"),
          variant: "form",
          options: DEPARTMENTS.map((d) => ({ value: d, label: tCommon(DEPARTMENT_LABELS[d]) })),
        },
        {
          kind: "select",
          name: "priority",
          label: t("new.priority"),
          variant: "form",
          options: PRIORITIES.map((p) => ({ value: p, label: t(PRIORITY_LABELS[p]) })),
        },
      ],
    },
    { kind: "input", name: "subject", label: t("new.subject"), required: true, maxLength: 150 },
    ...(services.length > 0
      ? [
          {
            kind: "select",
            name: "serviceId",
            label: t("new.service"),
            variant: "form",
            options: [
              { value: "", label: t("new.noService") },
              ...services.map((s) => ({
                value: String(s.id),
                label: (
                  <>
                    {s.name} {s.serverName}
                  </>
                ),
              })),
            ],
          } satisfies FieldSpec,
        ]
      : []),
    {
      kind: "textarea",
      name: "message",
      label: t("new.message"),
      required: true,
      rows: 8,
      maxLength: 5000,
      dir: "auto",
      variant: "form",
    },
  ];
  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="text-3xl font-bold">{t("new.heading")}</h1>
      <Form
        method="post"
        encType="multipart/form-data"
        className="mt-6 grid gap-4"
        noValidate
        onInput={suggestions.onInput}
      >
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        {state?.formError ? (
          <FormAlert>{message(state.formError, { count: state.formErrorCount })}</FormAlert>
        ) : null}
        {state?.verifyEmail ? (
          <Button asChild size="sm" variant="outline" className="w-fit">
            <Link to={VERIFY_EMAIL_PATH}>{message("auth.verify.goConfirm")}</Link>
          </Button>
        ) : null}
        <FormFields fields={fields} values={values} errors={state?.fieldErrors} />
        <ArticleSuggestions articles={suggestions.articles} />
        <TicketFilesField id="ticket-files" error={state?.filesError} />
        <Button type="submit" disabled={submitting} aria-busy={submitting} className="w-fit">
          {submitting ? t("new.submitting") : t("new.submit")}
        </Button>
      </Form>
    </main>
  );
}
