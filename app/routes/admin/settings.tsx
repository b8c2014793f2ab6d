import { data } from "react-router";
import { isSettingsForm } from "~/domain/settings/settings";
import { settingsActionSchema } from "~/domain/settings/settings.schemas";
import { saveSettingsForm } from "~/domain/settings/settings-form.server";
import { previewLifecycle } from "~/domain/lifecycle/lifecycle.server";
import { countCustomersWithoutCountry } from "~/domain/invoices/billing-details.server";
import { countryChoices } from "~/domain/invoices/billing-details";
import type { SettingsActionResult } from "~/features/admin-settings/settings-group";
import { SettingsPage } from "~/features/admin-settings/settings-page";
import { requirePermission } from "~/http/guards.server";
import { SUPPORTED_LOCALES } from "~/i18n/locales";
import { loadResources } from "~/i18n/resources";
import { adminAction } from "~/http/admin-route.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/settings";
import { requestContext } from "~/context.server";

// /admin/settings (spec section 3, Settings): one form per part, each saved on its own.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const admin = requirePermission(url, context, "settings.manage");
  const t = context.i18n.getFixedT(null, "admin-settings");
  const tSite = context.i18n.getFixedT(null, "site");
  const tCommon = context.i18n.getFixedT(null, "common");
  const { settings } = context;
  // The privacy page's built-in text in each language, as the catalogues write it ({{placeholders}} kept):
  // what an empty field stands for, shown in it.
  const privacy = Object.fromEntries(
    await Promise.all(
      SUPPORTED_LOCALES.map(async (lang) => [
        lang,
        (await loadResources(lang)).site.privacy.builtIn.join("\n"),
      ]),
    ),
  ) as Record<(typeof SUPPORTED_LOCALES)[number], string>;
  return {
    meta: { title: t("title") },
    settings,
    builtIn: {
      siteDescription: tCommon("footer.tagline"),
      seoTitle: `${tSite("home.metaTitle")} | ${settings.general.siteName}`,
      seoDescription: tSite("home.subtitle"),
      privacy,
    },
    entryGateServerOn: context.services.env.ENTRY_GATE === "on",
    // What the service lifecycle's next run would do, shown beside its switch.
    lifecyclePreview: await previewLifecycle(context.services.db, { now: new Date() }),
    locale: context.locale,
    // Whether the member reading has two-factor sign-in: without it, ticking their own role sends them
    // to set it up.
    adminTwoFactor: admin.twoFactorEnabled,
    // The verified-address requirement applies only with SMTP (docs/accounts.md).
    mailConfigured: context.services.mailEnabled,
    // Said beside the VAT rates: no rate reaches these customers' invoices (docs/invoices.md).
    customersWithoutCountry: await countCustomersWithoutCountry(context.services.db),
    // The shop's country choices, named and sorted here in the page's language, so the browser shows the
    // server's words (Node's and Chromium's tables name some countries differently).
    countries: countryChoices(context.locale),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = adminAction(
  requestContext,
  "settings.manage",
  settingsActionSchema,
  (form) => {
    const result: SettingsActionResult = {
      ok: false,
      form: isSettingsForm(form.values.intent) ? form.values.intent : null,
      message: isSettingsForm(form.values.intent)
        ? "admin-settings.saveFailed"
        : "admin-settings.errors.unknownForm",
      fieldErrors: form.fieldErrors,
      values: form.values,
    };
    return data(result, { status: 400 });
  },
  async ({ admin, input, context }) => {
    const saved = await saveSettingsForm(context.services, { ...input, actorId: admin.id });
    // Without JavaScript the page is rendered in this same request, after this action: give it (and the
    // root layout) the settings just saved rather than those read when the request began.
    context.settings = await context.services.settings.get();
    const result: SettingsActionResult = {
      ok: true,
      form: input.intent,
      message: saved.changed.length > 0 ? "admin-settings.saved" : "admin-settings.unchanged",
    };
    return result;
  },
);

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  return <SettingsPage {...loaderData} result={actionData} />;
}
