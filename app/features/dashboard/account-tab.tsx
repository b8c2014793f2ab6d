import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { CardSubmit } from "./card-submit";
import { useTranslation } from "~/i18n/use-translation";
import type { MessageKey } from "~/i18n/use-message";
import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { IntentButton } from "~/components/ui/intent-button";
import { TitledCard } from "~/components/ui/card";
import { FormFields } from "~/components/ui/form-card";
import { ResultMessage } from "~/components/ui/result-message";
import type { DashboardSession } from "~/domain/customer-dashboard/customer-dashboard";
import type { PendingDeletion } from "~/domain/accounts/account-deletion";
import type { OptionalMailKind } from "~/domain/mail/mail";
import { mediumDateTime } from "~/lib/intl-format";
import { compactAddress } from "~/lib/ip-address";
import { describeUserAgent } from "~/lib/user-agent";
import { AccountDeletionCard, type DeletionResult } from "./account-deletion";
import { MailPreferencesCard, type MailPreferencesResult } from "./mail-preferences";

/**
 * The account tab (/dashboard/account): the profile and the sessions, then the cards the route hands in
 * (two-factor sign-in, billing details), the mail the customer receives, the archive of their data and
 * the account's deletion.
 */
export function AccountTab({
  profile,
  sessions,
  currentSessionId,
  locale,
  result,
  sessionsResult,
  deletion,
  deletionResult,
  mail,
  mailResult,
  twoFactor,
  billing,
  dataExport,
  discord,
  emailChangeByLink = false,
}: {
  /** `pendingEmail`: a change waiting for its link to be followed (docs/accounts.md). */
  profile: { name: string; email: string; pendingEmail?: string | null };
  sessions: Pick<DashboardSession, "id" | "created_at" | "user_agent" | "ip_address">[];
  currentSessionId: string;
  locale: string;
  result?: {
    ok: boolean;
    message: MessageKey;
    fieldErrors?: Partial<Record<string, MessageKey>>;
    /** A throttled current password: minutes until it may be tried again. */
    minutes?: number;
  };
  /** What the sessions card's "End session" answered, shown in that card. */
  sessionsResult?: { ok: boolean; message: MessageKey };
  /** The pending request to delete the account, if any (ADR 19). */
  deletion: PendingDeletion | null;
  deletionResult?: DeletionResult;
  /** The kinds of email the customer receives, of those they may turn off (docs/mail.md). */
  mail: readonly OptionalMailKind[];
  mailResult?: MailPreferencesResult;
  /** The two-factor sign-in card (two-factor-card.tsx), after the sessions. */
  twoFactor?: ReactNode;
  /** The billing details card (billing-details.tsx), after the two-factor card. */
  billing?: ReactNode;
  /** The archive of the customer's data (data-export.tsx), before the account's deletion. */
  dataExport?: ReactNode;
  /** The Discord card (discord-card.tsx), after the two-factor card: another way to sign in. */
  discord?: ReactNode;
  /** SMTP is set: a new address takes effect once the link sent to it is followed. */
  emailChangeByLink?: boolean;
}) {
  const { t } = useTranslation("dashboard");
  const busy = useNavigation().state !== "idle";
  const date = mediumDateTime(locale);
  const errors = result?.fieldErrors ?? {};
  /** "Firefox 127 on Windows", or as much of it as the header tells. */
  const deviceName = (userAgent: string | null) => {
    const { browser, os } = describeUserAgent(userAgent);
    if (browser && os) return t("account.deviceOn", { browser, os });
    return browser ?? os ?? t("account.unknownDevice");
  };
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <TitledCard title={t("account.profile")}>
        {/* Keyed by the address: once it changes, the form shows the new one and an empty password. */}
        <Form key={profile.email} method="post" className="grid gap-3">
          <input type="hidden" name="intent" value="profile" />
          {result ? <ResultMessage result={result} values={{ count: result.minutes }} /> : null}
          <FormFields
            idPrefix="profile"
            fields={[
              {
                kind: "input",
                name: "name",
                label: t("account.name"),
                required: true,
                maxLength: 100,
              },
              {
                kind: "input",
                name: "email",
                label: t("account.email"),
                type: "email",
                required: true,
                dir: "ltr",
                hint: emailChangeByLink ? t("account.emailByLinkHint") : undefined,
              },
              {
                kind: "input",
                name: "currentPassword",
                id: "profile-current-password",
                label: t("account.currentPassword"),
                hint: t("account.currentPasswordHint"),
                type: "password",
                autoComplete: "current-password",
                maxLength: 128,
                dir: "ltr",
              },
            ]}
            values={{ name: profile.name, email: profile.email }}
            errors={errors}
            errorValues={{ count: result?.minutes }}
          />
          <CardSubmit busy={busy}>{t("account.save")}</CardSubmit>
        </Form>
        {profile.pendingEmail ? (
          <div
            data-testid="pending-email"
            className="mt-4 grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
          >
            <p>
              {t("account.pendingEmail")} <bdi dir="ltr">{profile.pendingEmail}</bdi>
            </p>
            <p>{t("account.pendingEmailLogin")}</p>
            <IntentButton intent="cancel-email-change" fields={{}} variant="outline">
              {t("account.cancelEmailChange")}
            </IntentButton>
          </div>
        ) : null}
        <div className="mt-6 border-t pt-4">
          <p className="font-semibold">{t("account.password")}</p>
          <p className="text-sm text-muted-foreground">{t("account.passwordNote")}</p>
          <Button asChild size="sm" variant="outline" className="mt-2">
            <Link to="/account/password">{t("account.changePassword")}</Link>
          </Button>
        </div>
      </TitledCard>
      <TitledCard title={t("account.sessions")}>
        {sessionsResult ? <ResultMessage result={sessionsResult} /> : null}
        <ul className="divide-y text-sm">
          {sessions.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              {/* min-w-0: a long browser name truncates instead of widening the page on phones. */}
              <span className="min-w-0">
                {/* The browser and system, not the raw header (which stays in its title). */}
                <span className="block font-medium" title={s.user_agent ?? undefined}>
                  <bdi>{deviceName(s.user_agent)}</bdi>
                </span>
                <span className="text-muted-foreground">
                  {t("account.since", { date: date.format(new Date(s.created_at)) })} ·{" "}
                  <span dir="ltr">{s.ip_address && compactAddress(s.ip_address)}</span>
                </span>
              </span>
              {s.id === currentSessionId ? (
                <Badge tone="green">{t("account.thisDevice")}</Badge>
              ) : (
                <IntentButton intent="end-session" fields={{ sessionId: s.id }} variant="outline">
                  {t("account.endSession")}
                </IntentButton>
              )}
            </li>
          ))}
        </ul>
      </TitledCard>
      {twoFactor}
      {discord}
      {billing}
      <MailPreferencesCard receive={mail} result={mailResult} />
      {dataExport}
      <AccountDeletionCard pending={deletion} locale={locale} result={deletionResult} />
    </div>
  );
}
