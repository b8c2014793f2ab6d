import { useTranslation } from "~/i18n/use-translation";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, fieldAria } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import {
  DEPARTMENT_LABELS,
  DEPARTMENTS,
  PRIORITIES,
  PRIORITY_LABELS,
} from "~/domain/tickets/tickets";
import { messageKey } from "~/lib/message-key";
import type { HostingService } from "~/domain/hosting-services/hosting-services";

const selectClass =
  "flex h-10 w-full rounded-md border bg-background px-3 py-2 text-base md:text-sm";

export function NewTicketForm({
  ticketsOpen,
  defaults,
  services,
  state,
}: {
  /** The admin's tickets switch: closed, the page says so instead of showing the form. */
  ticketsOpen: boolean;
  defaults: { department: string; subject: string; message: string };
  services: Pick<HostingService, "id" | "name" | "serverName">[];
  state?: {
    fieldErrors?: Record<string, string>;
    formError?: string;
    values?: Record<string, string>;
  };
}) {
  const { t } = useTranslation("tickets");
  const tr = t as (key: string) => string;
  const submitting = useNavigation().state !== "idle";
  const errors = state?.fieldErrors ?? {};
  const values: Record<string, string | undefined> = { ...defaults, ...state?.values };
  const err = (key?: string) => (key ? tr(messageKey(key)) : undefined);
  if (!ticketsOpen)
    return (
      <main className="mx-auto grid max-w-2xl gap-4 px-4 py-10">
        <h1 className="text-3xl font-bold">{t("new.closedHeading")}</h1>
        <p role="status" className="rounded-md bg-muted p-4">
          {t("new.closedText")}
        </p>
        <Link to="/dashboard?tab=support" className="text-primary hover:underline">
          {t("thread.back")}
        </Link>
      </main>
    );
  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="text-3xl font-bold">{t("new.heading")}</h1>
      <Form method="post" className="mt-6 grid gap-4" noValidate>
        {state?.formError ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-destructive">
            {err(state.formError)}
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="department" label={t("new.department")} error={err(errors.department)}>
            <select
              id="department"
              name="department"
              className={selectClass}
              defaultValue={values.department}
            >
              {DEPARTMENTS.map((d) => (
                <option key={d} value={d}>
                  {t(DEPARTMENT_LABELS[d])}
                </option>
              ))}
            </select>
          </Field>
          <Field id="priority" label={t("new.priority")} error={err(errors.priority)}>
            <select
              id="priority"
              name="priority"
              className={selectClass}
              defaultValue={values.priority ?? "medium"}
            >
              {PRIORITIES.map((p) => (
                <option key={p} value={p}>
                  {t(PRIORITY_LABELS[p])}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field id="subject" label={t("new.subject")} error={err(errors.subject)}>
          <Input
            id="subject"
            name="subject"
            required
            maxLength={150}
            defaultValue={values.subject}
            {...fieldAria("subject", errors.subject)}
          />
        </Field>
        {services.length > 0 ? (
          <Field id="serviceId" label={t("new.service")}>
            <select
              id="serviceId"
              name="serviceId"
              className={selectClass}
              defaultValue={values.serviceId ?? ""}
            >
              <option value="">{t("new.noService")}</option>
              {services.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} {s.serverName}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <Field id="message" label={t("new.message")} error={err(errors.message)}>
          <textarea
            id="message"
            name="message"
            required
            rows={8}
            maxLength={5000}
            defaultValue={values.message}
            dir="auto"
            className="w-full rounded-md border bg-background px-3 py-2 text-base md:text-sm"
            {...fieldAria("message", errors.message)}
          />
        </Field>
        <Button type="submit" disabled={submitting} aria-busy={submitting} className="w-fit">
          {submitting ? t("new.submitting") : t("new.submit")}
        </Button>
      </Form>
    </main>
  );
}
