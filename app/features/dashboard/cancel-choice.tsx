import type { ReactNode } from "react";
import { Form } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { Button } from "~/components/ui/button";
import { Field, fieldAria } from "~/components/ui/field";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { useBusy } from "~/components/ui/use-busy";
import {
  CANCELLATION_REASON_LABELS,
  CANCELLATION_REASONS,
  REASON_TEXT_MAX,
} from "~/domain/hosting-services/cancellation";

/** A refused choice's field errors and what was typed, shown again in the form that was sent. */
export interface ChoiceErrors {
  fieldErrors?: Record<string, MessageKey>;
  values?: Record<string, string>;
}

/**
 * One way to cancel, a card of its own: what it does (`children`), the reason asked (one of the list, and
 * the customer's own words if they add any) and its button, which is the confirmation (a plain post, so
 * it works without JavaScript). `intent` names the form; `errors` are its own when it was the one sent.
 */
export function CancelChoice({
  intent,
  title,
  submit,
  destructive = false,
  errors,
  children,
}: {
  intent: "end-of-term" | "refund";
  title: string;
  submit: string;
  destructive?: boolean;
  errors?: ChoiceErrors;
  children: ReactNode;
}) {
  const { t } = useTranslation("services");
  const message = useMessage();
  const busy = useBusy();
  const reasonId = `${intent}-reason`;
  const textId = `${intent}-reason-text`;
  const reasonError = errors?.fieldErrors?.reason;
  const textError = errors?.fieldErrors?.reasonText;
  return (
    <ChoiceCard title={title}>
      <Form method="post" className="grid gap-4" aria-label={title}>
        <input type="hidden" name="intent" value={intent} />
        <div className="grid gap-2 text-sm">{children}</div>
        <Field
          id={reasonId}
          label={t("cancel.reason")}
          error={reasonError ? message(reasonError) : undefined}
        >
          <Select
            id={reasonId}
            name="reason"
            variant="validated"
            defaultValue={errors?.values?.reason ?? ""}
            {...fieldAria(reasonId, reasonError)}
          >
            <option value="">{t("cancel.chooseReason")}</option>
            {CANCELLATION_REASONS.map((reason) => (
              <option key={reason} value={reason}>
                {t(CANCELLATION_REASON_LABELS[reason])}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          id={textId}
          label={t("cancel.reasonText")}
          error={textError ? message(textError) : undefined}
        >
          <Textarea
            id={textId}
            name="reasonText"
            rows={2}
            maxLength={REASON_TEXT_MAX}
            dir="auto"
            variant="validated"
            defaultValue={errors?.values?.reasonText ?? ""}
            {...fieldAria(textId, textError)}
          />
        </Field>
        <div>
          {/* The French and Arabic labels are long: on a phone they wrap instead of widening it. */}
          <Button
            type="submit"
            variant={destructive ? "destructive" : "default"}
            disabled={busy}
            className="h-auto min-h-10 py-2 text-start whitespace-normal"
          >
            {submit}
          </Button>
        </div>
      </Form>
    </ChoiceCard>
  );
}

/** A way to cancel's card: its title one level under the page's heading, then what it holds. */
export function ChoiceCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-4 rounded-xl border bg-background p-6 shadow-sm">
      <h3 className="text-lg font-semibold">{title}</h3>
      {children}
    </section>
  );
}

/** The open request's one button: withdraw it ("Keep my server", "Withdraw the request"). */
export function WithdrawButton({ children }: { children: ReactNode }) {
  const busy = useBusy();
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="withdraw" />
      <Button type="submit" variant="outline" disabled={busy}>
        {children}
      </Button>
    </Form>
  );
}
