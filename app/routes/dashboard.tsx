import { data, type ShouldRevalidateFunction } from "react-router";
import { z } from "~/lib/zod";
import { accountActionSchema, endSession, updateProfile } from "~/domain/accounts/profile.server";
import { cancelEmailChange } from "~/domain/accounts/email-verification.server";
import { emailVerificationRequired } from "~/http/email-verification.server";
import { deletionActionSchema } from "~/domain/accounts/account-deletion.schemas";
import {
  cancelAccountDeletion,
  requestAccountDeletion,
} from "~/domain/accounts/account-deletion.server";
import { autoRenewSchema, renewSchema } from "~/domain/hosting-services/hosting-services.schemas";
import { dashboardQuerySchema } from "~/domain/customer-dashboard/customer-dashboard.schemas";
import { loadCustomerDashboard } from "~/domain/customer-dashboard/customer-dashboard.server";
import { renewService, setAutoRenew } from "~/domain/hosting-services/hosting-services.server";
import { mailPreferencesSchema } from "~/domain/mail/mail.schemas";
import { twoFactorActionSchema } from "~/domain/accounts/two-factor.schemas";
import { loadTwoFactorState } from "~/domain/accounts/two-factor.server";
import { TwoFactorCard, type TwoFactorResult } from "~/features/dashboard/two-factor-card";
import {
  BillingDetailsCard,
  type BillingDetailsResult,
} from "~/features/dashboard/billing-details";
import { billingDetailsSchema } from "~/domain/invoices/billing-details.schemas";
import { countryChoices } from "~/domain/invoices/billing-details";
import { saveBillingDetails } from "~/domain/invoices/billing-details.server";
import { setMailPreferences } from "~/domain/mail/mail-preferences.server";
import {
  AccountTab,
  AddCoinsLink,
  DashboardShell,
  DomainsTab,
  LedgerTable,
  OverviewTab,
  SupportTab,
} from "~/features/dashboard/dashboard-view";
import { OrdersList, ServicesPanel } from "~/features/dashboard/services-panel";
import { InvoiceList } from "~/features/invoices/invoice-list";
import { Pager } from "~/components/data-table/pager";
import { parseForm } from "~/http/form.server";
import { requireUser } from "~/http/guards.server";
import { twoFactorFormAction } from "~/http/two-factor-form.server";
import { redirectWithToast } from "~/http/form-answers.server";
import { refusal, unparsedForm } from "~/http/route-request.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { MessageKey } from "~/i18n/use-message";
import type { FailureKind } from "~/lib/result";
import type { Route } from "./+types/dashboard";
import { requestContext } from "~/context.server";
import { coinPurchaseWay } from "~/components/layout/coin-dialog";
import { useRootData } from "~/root";

/** What the dashboard's forms answer: the message to show and, for the account form, each field's. */
type ActionAnswer = {
  ok: boolean;
  message: MessageKey;
  fieldErrors?: Partial<Record<string, MessageKey>>;
  /**
   * The account tab's card that answered, each showing only its own messages: the sessions, deletion,
   * email or two-factor card (none: the profile card).
   */
  form?: "sessions" | "deletion" | "mail" | "two-factor" | "billing";
};

export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const t = context.i18n.getFixedT(null, "common");
  const query = dashboardQuerySchema.parse(Object.fromEntries(url.searchParams));
  const view = await loadCustomerDashboard(context.services.db, user.id, query, {
    language: context.locale,
    invoicing: context.settings.invoicing,
  });
  // A fresh key per confirmation shown: a double click or a reload of the confirmed post renews once.
  const renewKey = "renewal" in view && view.renewal?.ok ? crypto.randomUUID() : null;
  // The account tab's two-factor card: its state needs better-auth (the secret is encrypted).
  const twoFactor = view.profile ? await loadTwoFactorState(context.services, user.id) : null;
  return {
    meta: { title: t("dashboard.title") },
    name: user.name,
    view,
    renewKey,
    twoFactor,
    currentSessionId: context.session?.sessionId ?? "",
    ticketsOpen: context.settings.features.tickets,
    // The services tab's dates: when the lifecycle suspends or ends a service, in the site's zone.
    lifecycle: {
      enabled: context.settings.lifecycle.enabled,
      graceDays: context.settings.lifecycle.graceDays,
      terminationDays: context.settings.lifecycle.terminationDays,
    },
    timeZone: context.settings.general.timeZone,
    // Said under each order waiting for approval (services and billing tabs).
    approvalHours: context.settings.general.approvalHours,
    coinPurchase: context.settings.features.coinPurchase,
    locale: context.locale,
    // The billing card's countries, named and sorted here in the page's language, so the browser shows
    // the server's words (Node's and Chromium's tables name some countries differently).
    countries: view.billing ? countryChoices(context.locale) : [],
    // Verified addresses (docs/accounts.md): the notice asks an unverified account to confirm its
    // address, only when mail can reach it.
    address: {
      email: user.email,
      verified: user.emailVerified,
      mailConfigured: context.services.mailEnabled,
      required: emailVerificationRequired(context),
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

const intentSchema = z.object({ intent: z.string().optional() });

/** A services-tab form that does not parse names no service of the customer's. */
function noSuchService() {
  return data({ ok: false, message: "services.errors.notFound" } satisfies ActionAnswer, {
    status: 400,
  });
}

/**
 * An account-tab form the domain refused: its message, the field it names and, for a throttled password,
 * the minutes to wait, after what else places it on the page (`about`); the status its kind deserves.
 */
function accountRefusal<A extends object = Record<never, never>>(
  result: { kind: FailureKind; error: MessageKey; field?: string; minutes?: number },
  about: A = {} as A,
) {
  return data(
    {
      ok: false as const,
      ...about,
      message: result.error,
      fieldErrors: result.field ? { [result.field]: result.error } : undefined,
      ...(result.minutes === undefined ? {} : { minutes: result.minutes }),
    },
    { status: statusOf(result) },
  );
}

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const { intent } = intentSchema.parse(
    Object.fromEntries(
      await request
        .clone()
        .formData()
        .catch(() => new FormData()),
    ),
  );
  const db = context.services.db;
  if (intent === "request-deletion" || intent === "cancel-deletion") {
    const form = await parseForm(request, deletionActionSchema);
    if (!form.ok)
      return unparsedForm(
        { form: "deletion" as const },
        Object.values(form.fieldErrors)[0] ?? "dashboard.deletion.passwordRequired",
        { fieldErrors: form.fieldErrors },
      );
    if (form.data.intent === "cancel-deletion") {
      const result = await cancelAccountDeletion(db, { userId: user.id });
      if (!result.ok) return refusal(result, { form: "deletion" as const });
      return { ok: true, form: "deletion", message: "dashboard.deletion.cancelled" } as const;
    }
    const result = await requestAccountDeletion(
      db,
      { userId: user.id, currentPassword: form.data.currentPassword, ip: context.clientIp },
      { ipPerMinute: context.services.loginIpLimit },
    );
    if (!result.ok) return accountRefusal(result, { form: "deletion" as const });
    return { ok: true, form: "deletion", message: "dashboard.deletion.requested" } as const;
  }
  if (intent?.startsWith("two-factor-"))
    return twoFactorFormAction(request, context, {
      userId: user.id,
      form: await parseForm(request, twoFactorActionSchema),
    });
  if (intent === "billing-details") {
    const form = await parseForm(request, billingDetailsSchema);
    if (!form.ok)
      return unparsedForm({ form: "billing" as const }, "invoices.billing.notSaved", {
        fieldErrors: form.fieldErrors,
        values: form.values,
      } satisfies Pick<BillingDetailsResult, "fieldErrors" | "values">);
    await saveBillingDetails(db, { userId: user.id, ...form.data });
    return { ok: true, form: "billing", message: "invoices.billing.saved" } as const;
  }
  if (intent === "mail-preferences") {
    const form = await parseForm(request, mailPreferencesSchema);
    if (!form.ok) return unparsedForm({ form: "mail" as const }, "dashboard.account.mail.invalid");
    await setMailPreferences(db, { userId: user.id, receive: form.data.receive });
    return { ok: true, form: "mail", message: "dashboard.account.mail.saved" } as const;
  }
  if (intent === "profile" || intent === "end-session" || intent === "cancel-email-change") {
    const form = await parseForm(request, accountActionSchema);
    // "End session" is a button of the sessions card: its answer is shown there.
    if (!form.ok && intent === "end-session")
      return unparsedForm({ form: "sessions" as const }, "dashboard.twoFactor.errors.unknownForm");
    if (!form.ok)
      return unparsedForm({}, Object.values(form.fieldErrors)[0] ?? "auth.errors.nameRequired", {
        fieldErrors: form.fieldErrors,
      });
    if (form.data.intent === "end-session") {
      await endSession(db, user.id, form.data.sessionId);
      return {
        ok: true,
        form: "sessions",
        message: "dashboard.account.sessionEnded",
      } satisfies ActionAnswer;
    }
    if (form.data.intent === "cancel-email-change") {
      await cancelEmailChange(db, user.id);
      return { ok: true, message: "dashboard.account.emailChangeCancelled" } satisfies ActionAnswer;
    }
    const result = await updateProfile(
      db,
      {
        userId: user.id,
        currentSessionId: context.session?.sessionId,
        name: form.data.name,
        email: form.data.email,
        currentPassword: form.data.currentPassword,
        ip: context.clientIp,
      },
      { ipPerMinute: context.services.loginIpLimit },
      // With SMTP the new address is confirmed by a link before it becomes the login.
      { confirmWith: context.services.mailEnabled ? context.services.auth : undefined },
    );
    if (!result.ok) return accountRefusal(result);
    return {
      ok: true,
      message: result.emailPending
        ? "dashboard.account.emailPending"
        : result.emailChanged
          ? "dashboard.account.emailChanged"
          : "dashboard.account.saved",
    } satisfies ActionAnswer;
  }
  if (intent === "auto-renew") {
    const form = await parseForm(request, autoRenewSchema);
    if (!form.ok) return noSuchService();
    const result = await setAutoRenew(db, {
      userId: user.id,
      serviceId: form.data.serviceId,
      autoRenew: form.data.autoRenew,
    });
    if (!result.ok)
      return data({ ok: false, message: result.error } satisfies ActionAnswer, {
        status: statusOf(result),
      });
    throw redirectWithToast(
      "/dashboard?tab=services",
      result.service.autoRenew ? "toast.autoRenewOn" : "toast.autoRenewOff",
    );
  }
  const form = await parseForm(request, renewSchema);
  if (!form.ok) return noSuchService();
  const result = await renewService(db, {
    userId: user.id,
    serviceId: form.data.serviceId,
    idempotencyKey: form.data.idempotencyKey,
    shownPriceCents: form.data.shownPrice,
    settings: context.settings,
  });
  if (!result.ok) {
    return data(
      {
        ok: false,
        message: result.error,
        missingCents: "missingCents" in result ? result.missingCents : undefined,
        totalCents: "totalCents" in result ? result.totalCents : undefined,
      },
      { status: statusOf(result) },
    );
  }
  throw redirectWithToast("/dashboard?tab=services", "toast.serviceRenewed");
}

// A refusal (4xx) skips the reload by default; a conflict (409: a renewal whose price changed since it
// was shown, a service that can no longer renew) reloads the tab, so the confirmation shows the price
// and the state as they are now instead of the stale ones the refused form carried.
export const shouldRevalidate: ShouldRevalidateFunction = ({
  actionStatus,
  defaultShouldRevalidate,
}) => actionStatus === 409 || defaultShouldRevalidate;

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { view, locale } = loaderData;
  // How coins are bought now, as the shell says (the coin dialog): where "Add coins" leads.
  const root = useRootData();
  const coinWay = root?.user ? coinPurchaseWay(root.settings, root.user) : "closed";
  return (
    <DashboardShell {...loaderData} tab={view.tab} cards={view.cards}>
      {view.activity && view.announcements && view.renewals ? (
        <OverviewTab
          announcements={view.announcements}
          activity={view.activity}
          renewals={view.renewals}
          locale={locale}
        />
      ) : null}
      {view.services && view.now ? (
        <ServicesPanel
          services={view.services}
          waitingOrders={view.waitingOrders ?? []}
          renewal={view.renewal}
          renewKey={loaderData.renewKey}
          coinWay={coinWay}
          locale={locale}
          now={view.now}
          lifecycle={loaderData.lifecycle}
          timeZone={loaderData.timeZone}
          approvalHours={loaderData.approvalHours}
          error={
            actionData && !actionData.ok
              ? {
                  message: actionData.message,
                  missingCents:
                    "missingCents" in actionData ? Number(actionData.missingCents ?? 0) : undefined,
                  totalCents:
                    "totalCents" in actionData ? Number(actionData.totalCents ?? 0) : undefined,
                }
              : undefined
          }
        />
      ) : null}
      {view.tab === "domains" ? <DomainsTab /> : null}
      {view.ledger && view.orders ? (
        <div className="grid gap-6">
          <AddCoinsLink way={coinWay} />
          <LedgerTable
            entries={view.ledger.entries}
            nextBefore={view.ledger.nextBefore}
            hasNewer={view.ledger.hasNewer}
            locale={locale}
          />
          {view.documents ? (
            <InvoiceList
              documents={view.documents.documents}
              page={view.documents.page}
              hasMore={view.documents.hasMore}
              href={(p) => `/dashboard?tab=billing&invoices=${p}`}
              locale={locale}
            />
          ) : null}
          <OrdersList
            orders={view.orders}
            locale={locale}
            approvalHours={loaderData.approvalHours}
          />
        </div>
      ) : null}
      {view.tickets ? (
        <SupportTab tickets={view.tickets} ticketsOpen={loaderData.ticketsOpen} locale={locale} />
      ) : null}
      {view.profile && view.sessions ? (
        <AccountTab
          profile={view.profile}
          sessions={view.sessions}
          currentSessionId={loaderData.currentSessionId}
          locale={locale}
          result={
            actionData && "form" in actionData
              ? undefined
              : actionData && "fieldErrors" in actionData
                ? actionData
                : actionData?.ok
                  ? actionData
                  : undefined
          }
          sessionsResult={
            actionData && "form" in actionData && actionData.form === "sessions"
              ? { ok: actionData.ok, message: actionData.message }
              : undefined
          }
          deletion={view.deletion ?? null}
          deletionResult={
            actionData && "form" in actionData && actionData.form === "deletion"
              ? actionData
              : undefined
          }
          mail={view.mail ?? []}
          emailChangeByLink={loaderData.address.mailConfigured}
          mailResult={
            actionData && "form" in actionData && actionData.form === "mail"
              ? { ok: actionData.ok, form: "mail", message: actionData.message }
              : undefined
          }
          billing={
            view.billing ? (
              <BillingDetailsCard
                details={view.billing}
                countries={loaderData.countries}
                result={
                  actionData && "form" in actionData && actionData.form === "billing"
                    ? (actionData as BillingDetailsResult)
                    : undefined
                }
              />
            ) : null
          }
          twoFactor={
            loaderData.twoFactor ? (
              <TwoFactorCard
                state={loaderData.twoFactor}
                result={
                  actionData && "form" in actionData && actionData.form === "two-factor"
                    ? (actionData as TwoFactorResult)
                    : undefined
                }
              />
            ) : null
          }
        />
      ) : null}
      {view.page && (view.page > 1 || view.hasMore) ? (
        <Pager
          page={view.page}
          hasMore={Boolean(view.hasMore)}
          href={(p) => `/dashboard?tab=${view.tab}&page=${p}`}
          labels={{ previous: "‹", next: "›" }}
        />
      ) : null}
    </DashboardShell>
  );
}
