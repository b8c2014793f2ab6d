import { data, redirect } from "react-router";
import { z } from "~/lib/zod";
import { accountActionSchema, endSession, updateProfile } from "~/domain/accounts/profile.server";
import { cancelEmailChange } from "~/domain/accounts/email-verification.server";
import { deletionActionSchema } from "~/domain/accounts/account-deletion.schemas";
import {
  cancelAccountDeletion,
  requestAccountDeletion,
} from "~/domain/accounts/account-deletion.server";
import { loadAccountTab } from "~/domain/customer-dashboard/customer-dashboard.server";
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
import { askForDataExport, loadDataExportsCard } from "~/domain/data-exports/data-exports.server";
import { DataExportCard, type DataExportResult } from "~/features/dashboard/data-export";
import { numberFormat } from "~/lib/intl-format";
import { AccountTab } from "~/features/dashboard/account-tab";
import type { DeletionResult } from "~/features/dashboard/account-deletion";
import { FormAlert } from "~/components/ui/form-card";
import { discordAccountActionSchema } from "~/domain/discord/discord.schemas";
import {
  loadDiscordLink,
  startDiscordLink,
  unlinkDiscord,
} from "~/domain/discord/discord-auth.server";
import { DiscordCard, type DiscordCardResult } from "~/features/dashboard/discord-card";
import { discordPageState, discordSignInOffered } from "~/http/discord.server";
import { headersWithCookies } from "~/http/toast.server";
import { parseForm } from "~/http/form.server";
import { requireUser } from "~/http/guards.server";
import { twoFactorFormAction } from "~/http/two-factor-form.server";
import { refusal, unknownForm, unparsedForm } from "~/http/route-request.server";
import { statusOf } from "~/http/result-status";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import type { FailureKind } from "~/lib/result";
import type { Route } from "./+types/account";
import { requestContext } from "~/context.server";

/** What the account tab's forms answer: the message to show and, for the profile form, each field's. */
type ActionAnswer = {
  ok: boolean;
  message: MessageKey;
  fieldErrors?: Partial<Record<string, MessageKey>>;
  /**
   * The account tab's card that answered, each showing only its own messages: the sessions, deletion,
   * email, two-factor or billing card (none: the profile card), or the page's top for a form it does not
   * know.
   */
  form?:
    | "sessions"
    | "deletion"
    | "mail"
    | "two-factor"
    | "billing"
    | "data-export"
    | "discord"
    | "page";
};

/**
 * An archive's size in the reader's language and units ("12.3 kB", "12,3 ko"), written here so the
 * browser shows the server's words (Node's and Chromium's tables name some units differently).
 */
function archiveSize(bytes: number, locale: string): string {
  const megabytes = bytes >= 1_000_000;
  return numberFormat(locale, {
    style: "unit",
    unit: megabytes ? "megabyte" : "kilobyte",
    maximumFractionDigits: 1,
  }).format(bytes / (megabytes ? 1_000_000 : 1_000));
}

// /dashboard/account: the profile, the sessions, two-factor sign-in, billing details, the mail the
// customer receives, the archive of their data and the account's deletion; each card's form is
// answered here, in that card.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const [view, twoFactor, dataExports, discordLink] = await Promise.all([
    loadAccountTab(context.services.db, user.id),
    // The two-factor card's state needs better-auth (the secret is encrypted).
    loadTwoFactorState(context.services, user.id),
    loadDataExportsCard(context.services.db, {
      userId: user.id,
      secret: context.services.env.AUTH_SECRET,
      perDay: context.settings.selfService.dataExportsPerDay,
      now: context.services.clock(),
    }),
    // Discord (docs/discord.md): shown when the application is configured, or one is linked already.
    loadDiscordLink(context.services.db, {
      userId: user.id,
      available: discordSignInOffered(context),
    }),
  ]);
  return {
    view,
    twoFactor,
    dataExports: {
      ...dataExports,
      exports: dataExports.exports.map((each) => ({
        ...each,
        size: each.sizeBytes === null ? null : archiveSize(each.sizeBytes, context.locale),
      })),
    },
    timeZone: context.settings.general.timeZone,
    currentSessionId: context.session?.sessionId ?? "",
    locale: context.locale,
    // The billing card's countries, named and sorted here in the page's language, so the browser shows
    // the server's words (Node's and Chromium's tables name some countries differently).
    countries: countryChoices(context.locale),
    // With SMTP a new address is confirmed by a link before it becomes the login.
    emailChangeByLink: context.services.mailEnabled,
    discord: { view: discordLink, ...discordPageState(context, url) },
  };
}

const intentSchema = z.object({ intent: z.string().optional() });

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
  if (intent === "data-export") {
    const result = await askForDataExport(
      db,
      { userId: user.id, now: context.services.clock() },
      { perDay: context.settings.selfService.dataExportsPerDay },
    );
    if (!result.ok)
      return data(
        {
          ok: false,
          form: "data-export",
          message: result.error,
          ...("params" in result ? { params: result.params } : {}),
        } satisfies DataExportResult,
        { status: statusOf(result) },
      );
    return {
      ok: true,
      form: "data-export",
      message: "dashboard.dataExport.queued",
    } satisfies DataExportResult;
  }
  if (intent === "discord-link" || intent === "discord-unlink") {
    const form = await parseForm(request, discordAccountActionSchema);
    if (!form.ok) return unparsedForm({ form: "discord" as const }, "dashboard.unknownForm");
    if (form.data.intent === "discord-link") {
      if (!discordSignInOffered(context))
        return data(
          {
            ok: false,
            form: "discord",
            message: "discord.account.errors.unavailable",
          } satisfies DiscordCardResult,
          { status: 409 },
        );
      // Linking goes through Discord: the browser is sent there, and back to the callback.
      const start = await startDiscordLink(context.services, {
        client: {
          ip: context.clientIp,
          userAgent: request.headers.get("user-agent"),
          cookie: request.headers.get("cookie"),
        },
      });
      throw redirect(start.url, { headers: headersWithCookies(start.setCookies) });
    }
    const result = await unlinkDiscord(db, { userId: user.id, now: context.services.clock() });
    if (!result.ok) return refusal(result, { form: "discord" as const });
    return {
      ok: true,
      form: "discord",
      message: "discord.account.unlinked",
    } satisfies DiscordCardResult;
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
  return unknownForm("dashboard.unknownForm");
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { view, locale } = loaderData;
  const message = useMessage();
  const answer = actionData as (ActionAnswer & Record<string, unknown>) | undefined;
  /** The answer of the card `form` names (none: the profile card's). */
  const of = (form: ActionAnswer["form"]) => (answer?.form === form ? answer : undefined);
  return (
    <>
      {answer?.form === "page" ? <FormAlert>{message(answer.message)}</FormAlert> : null}
      <AccountTab
        profile={view.profile}
        sessions={view.sessions}
        currentSessionId={loaderData.currentSessionId}
        locale={locale}
        result={of(undefined)}
        sessionsResult={of("sessions")}
        deletion={view.deletion}
        deletionResult={of("deletion") as DeletionResult | undefined}
        mail={view.mail}
        emailChangeByLink={loaderData.emailChangeByLink}
        mailResult={of("mail") && { ok: answer!.ok, form: "mail", message: answer!.message }}
        billing={
          <BillingDetailsCard
            details={view.billing}
            countries={loaderData.countries}
            result={of("billing") as BillingDetailsResult | undefined}
          />
        }
        dataExport={
          <DataExportCard
            card={loaderData.dataExports}
            exports={loaderData.dataExports.exports}
            locale={locale}
            timeZone={loaderData.timeZone}
            result={of("data-export") as DataExportResult | undefined}
          />
        }
        discord={
          <DiscordCard
            view={loaderData.discord.view}
            refusal={loaderData.discord.refusal}
            outcome={loaderData.discord.outcome}
            result={of("discord") as DiscordCardResult | undefined}
          />
        }
        twoFactor={
          loaderData.twoFactor ? (
            <TwoFactorCard
              state={loaderData.twoFactor}
              result={of("two-factor") as TwoFactorResult | undefined}
            />
          ) : null
        }
      />
    </>
  );
}
