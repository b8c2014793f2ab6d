import type { ReactNode } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Link } from "~/components/ui/link";
import { StatusMessage } from "~/components/ui/status-message";
import { UNSUBSCRIBE_PATH } from "~/domain/campaigns/campaigns";
import { useTranslation } from "~/i18n/use-translation";

/** A short page of one card: the newsletter's confirmation, the unsubscribe page. */
function OneCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto flex w-full max-w-md flex-col px-4 py-12">
      <Card>
        <CardHeader>
          <h1 className="text-xl font-semibold">{title}</h1>
        </CardHeader>
        <CardContent className="grid gap-4">{children}</CardContent>
      </Card>
    </main>
  );
}

function HomeLink() {
  const { t } = useTranslation("campaigns");
  return (
    <Link to="/" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
      {t("unsubscribe.home")}
    </Link>
  );
}

/** /newsletter/confirm: what the confirmation link did. */
export function NewsletterConfirmView({
  outcome,
}: {
  outcome: "confirmed" | "expired" | "invalid";
}) {
  const { t } = useTranslation("campaigns");
  const text = {
    confirmed: t("confirm.confirmed"),
    expired: t("confirm.expired"),
    invalid: t("confirm.invalid"),
  }[outcome];
  return (
    <OneCard title={t("confirm.title")}>
      <StatusMessage ok={outcome === "confirmed"}>{text}</StatusMessage>
      <HomeLink />
    </OneCard>
  );
}

/**
 * /unsubscribe: a campaign's link opened shows the question and a button (a link scanner that opens it
 * changes nothing); the button posts what a mail provider's one-click post sends.
 */
export function UnsubscribeView({
  token,
  state,
}: {
  token: string;
  state: "ask" | "done" | "invalid";
}) {
  const { t } = useTranslation("campaigns");
  if (state === "invalid")
    return (
      <OneCard title={t("unsubscribe.invalidTitle")}>
        <StatusMessage ok={false}>{t("unsubscribe.invalid")}</StatusMessage>
        <HomeLink />
      </OneCard>
    );
  if (state === "done")
    return (
      <OneCard title={t("unsubscribe.doneTitle")}>
        <StatusMessage ok>{t("unsubscribe.done")}</StatusMessage>
        <HomeLink />
      </OneCard>
    );
  return (
    <OneCard title={t("unsubscribe.title")}>
      <p className="text-sm">{t("unsubscribe.question")}</p>
      <Form method="post" action={`${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`}>
        <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        <Button type="submit">{t("unsubscribe.button")}</Button>
      </Form>
    </OneCard>
  );
}
