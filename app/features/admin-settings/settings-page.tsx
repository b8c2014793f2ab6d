import { EyeIcon } from "lucide-react";
import { useState, type ComponentProps, type ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import { Field, fieldAria } from "~/components/ui/field";
import { FormCard, FormFields, type FieldSpec } from "~/components/ui/form-card";
import { Input } from "~/components/ui/input";
import type { ActionResult } from "~/components/ui/result-message";
import { StatusMessage } from "~/components/ui/status-message";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import {
  LIFECYCLE_MAX_DAYS,
  PRIVACY_TEXT_MAX,
  SETTINGS_FORM_FIELDS,
  SETTINGS_FORM_SECTION,
  type Settings,
  type SettingsForm,
} from "~/domain/settings/settings";
import { isHexColor, themeVariables } from "~/domain/settings/theme";
import type { LifecyclePreview, LifecycleService } from "~/domain/lifecycle/lifecycle";
import { ADMIN_TWO_FACTOR_SETUP_PATH } from "~/domain/accounts/accounts";
import { formatEuros } from "~/lib/money";
import { mediumDate } from "~/lib/intl-format";
import { expiryPassed } from "~/domain/hosting-services/hosting-services";
import { useInvoicingGroup } from "./invoicing-group";
import { useApprovalGroup, useLocationsGroup } from "./orders-group";
import type { CountryChoice } from "~/domain/invoices/billing-details";

export type SettingsActionResult =
  | (ActionResult & { ok: true; form: SettingsForm })
  | (ActionResult & {
      ok: false;
      form: SettingsForm | null;
      fieldErrors: Record<string, MessageKey>;
      values: Record<string, string>;
    });

/** The built-in texts an empty field stands for, in the admin's language (shown as placeholders). */
export interface BuiltInTexts {
  siteDescription: string;
  seoTitle: string;
  seoDescription: string;
  /** The privacy page's built-in text, per language, with its {{placeholders}}. */
  privacy: Record<"en" | "fr" | "ar", string>;
}

// Language names, literal keys (common namespace) for the catalogue test.
const LOCALE_NAMES = { en: "language.en", fr: "language.fr", ar: "language.ar" } as const;

/** One part of the settings: its own card and form, saved on its own. */
export interface SettingsGroup {
  form: SettingsForm;
  title: string;
  description: string;
  /**
   * What the fields show before anything is typed, when it is not simply the section the form is
   * stored in (SETTINGS_FORM_SECTION): the invoicing's rates are edited as text.
   */
  stored?: Record<string, unknown>;
  aside?: ReactNode;
  fields: FieldSpec[];
}

/**
 * What one form shows: the stored settings, or after a refused save of this form what was typed with
 * its errors (nothing of it was saved).
 */
function useFormState(
  form: SettingsForm,
  stored: Record<string, unknown>,
  result?: SettingsActionResult,
) {
  const message = useMessage();
  const mine = result && result.form === form ? result : undefined;
  const refused = mine && !mine.ok ? mine : undefined;
  const navigation = useNavigation();
  const names: readonly string[] = SETTINGS_FORM_FIELDS[form];
  // A list (the locations) is edited one entry per line.
  const storedText = (value: unknown) =>
    Array.isArray(value) ? value.join("\n") : String(value ?? "");
  const text = (field: string) =>
    refused ? (refused.values[field] ?? "") : storedText(stored[field]);
  const errors = refused?.fieldErrors ?? {};
  return {
    /** What the form's card shows: sending, then how it went. */
    card: {
      busy: navigation.state !== "idle" && navigation.formData?.get("intent") === form,
      status: mine ? { ok: mine.ok, text: message(mine.message) } : null,
    },
    /** What its fields show: what was typed or what is stored, and the errors. */
    fields: {
      values: Object.fromEntries(names.map((field) => [field, text(field)])),
      checked: Object.fromEntries(
        names.map((field) => [
          field,
          refused ? refused.values[field] === "on" : stored[field] === true,
        ]),
      ),
      errors,
    },
    errors,
    text,
  };
}

export function SettingsPage({
  settings,
  builtIn,
  entryGateServerOn,
  lifecyclePreview,
  locale,
  adminTwoFactor,
  result,
  mailConfigured = false,
  customersWithoutCountry = 0,
  countries,
}: {
  settings: Settings;
  builtIn: BuiltInTexts;
  /** ENTRY_GATE=on at start: only then does the entry gate setting matter. */
  entryGateServerOn: boolean;
  /** What the service lifecycle's next run would do (previewLifecycle). */
  lifecyclePreview: LifecyclePreview;
  locale: string;
  /** The admin reading the page has two-factor sign-in on. */
  adminTwoFactor: boolean;
  result?: SettingsActionResult;
  /** SMTP_URL is set: only then does the verified-address requirement apply. */
  mailConfigured?: boolean;
  /** Customers without a billing country (no VAT reaches their invoices), said beside the VAT rates. */
  customersWithoutCountry?: number;
  /** The shop country's choices in the reader's language and order, named on the server (the loader's). */
  countries: readonly CountryChoice[];
}) {
  const { t } = useTranslation("admin-settings");
  const message = useMessage();
  const groups = useSettingsGroups(settings, builtIn, entryGateServerOn, result, {
    preview: lifecyclePreview,
    locale,
    adminTwoFactor,
  });
  // The order form's locations and the approval time customers are told, after the maintenance card.
  groups.splice(
    groups.findIndex((group) => group.form === "maintenance") + 1,
    0,
    useLocationsGroup(settings),
    useApprovalGroup(settings),
  );
  groups.push(useVerificationGroup(settings, mailConfigured));
  groups.push(useInvoicingGroup(settings, { countries, customersWithoutCountry }));
  const unknown = result && !result.ok && result.form === null ? result : undefined;
  return (
    <main className="grid max-w-4xl gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-bold">{t("title")}</h1>
        <p className="text-muted-foreground">{t("intro")}</p>
      </div>
      {unknown ? <StatusMessage ok={false}>{message(unknown.message)}</StatusMessage> : null}
      <nav aria-label={t("sections")}>
        <ul className="flex flex-wrap gap-2 text-sm">
          {groups.map((group) => (
            <li key={group.form}>
              <a href={`#${group.form}`} className="rounded-md border px-3 py-1 hover:bg-muted">
                {group.title}
              </a>
            </li>
          ))}
          {/* A page of its own: a connection to check and a snapshot to show, not a form. */}
          <li>
            <Link
              to="/admin/settings/game-panel"
              className="rounded-md border px-3 py-1 hover:bg-muted"
            >
              {t("gamePanel")}
            </Link>
          </li>
        </ul>
      </nav>
      {groups.map((group) => (
        <SettingsCard key={group.form} group={group} settings={settings} result={result} />
      ))}
    </main>
  );
}

function SettingsCard({
  group,
  settings,
  result,
}: {
  group: SettingsGroup;
  settings: Settings;
  result?: SettingsActionResult;
}) {
  const { t } = useTranslation("admin-settings");
  const stored = group.stored ?? settings[SETTINGS_FORM_SECTION[group.form]];
  const state = useFormState(group.form, stored, result);
  return (
    <FormCard
      id={group.form}
      title={group.title}
      description={group.description}
      aside={group.aside}
      {...state.card}
      submit={{ label: t("save"), busyLabel: t("saving") }}
    >
      <FormFields fields={group.fields} idPrefix={group.form} {...state.fields} />
    </FormCard>
  );
}

/** A field list's link to the public page a setting shows, opened in a new tab to see it. */
function previewLink(key: string, href: string, label: string): FieldSpec {
  return {
    kind: "custom",
    key,
    content: (
      <a
        href={href}
        target="_blank"
        rel="noopener"
        className="inline-flex w-fit items-center gap-2 text-sm text-primary hover:underline"
      >
        <EyeIcon className="size-4" aria-hidden />
        {label}
      </a>
    ),
  };
}

/** The settings page as data: its ten forms, each a list of fields, in the order the page shows them. */
function useSettingsGroups(
  settings: Settings,
  builtIn: BuiltInTexts,
  entryGateServerOn: boolean,
  result: SettingsActionResult | undefined,
  lifecycle: { preview: LifecyclePreview; locale: string; adminTwoFactor: boolean },
): SettingsGroup[] {
  const { t } = useTranslation("admin-settings");
  const { t: tCommon } = useTranslation();
  const maintenanceOn = settings.general.maintenanceMode;
  const lifecycleOn = settings.lifecycle.enabled;
  const twoFactorRequired = settings.security.requireAdminTwoFactor;
  // A number of days: a whole number the form checks again (lifecycleFormSchema).
  const days = (name: string, label: string, hint?: string, min = 0): FieldSpec => ({
    kind: "input",
    type: "number",
    name,
    label,
    hint,
    min,
    max: LIFECYCLE_MAX_DAYS,
    step: 1,
    inputMode: "numeric",
    dir: "ltr",
    className: "w-28",
  });
  // A free text (a name, a description) may be in any script; addresses and links read left to right.
  const link = (name: string, label: string, hint?: string): FieldSpec => ({
    kind: "input",
    type: "url",
    name,
    label,
    ...(hint ? { hint } : {}),
    maxLength: 500,
    dir: "ltr",
    placeholder: "https://",
  });
  return [
    {
      form: "general",
      title: t("general.title"),
      description: t("general.description"),
      fields: [
        settingsRow(2, [
          {
            kind: "input",
            type: "text",
            name: "siteName",
            label: t("general.siteName"),
            maxLength: 80,
            dir: "auto",
          },
          {
            kind: "select",
            name: "defaultLocale",
            label: t("general.defaultLocale"),
            hint: t("general.defaultLocaleHint"),
            variant: "form",
            options: (["en", "fr", "ar"] as const).map((lang) => ({
              value: lang,
              label: tCommon(LOCALE_NAMES[lang]),
              lang,
            })),
          },
        ]),
        {
          kind: "textarea",
          rows: 3,
          variant: "validated",
          name: "siteDescription",
          label: t("general.siteDescription"),
          hint: t("builtInHint"),
          maxLength: 300,
          dir: "auto",
          placeholder: builtIn.siteDescription,
        },
        settingsRow(2, [
          {
            kind: "input",
            type: "email",
            name: "contactEmail",
            label: t("general.contactEmail"),
            dir: "ltr",
          },
          {
            kind: "input",
            type: "email",
            name: "paymentsEmail",
            label: t("general.paymentsEmail"),
            hint: t("general.paymentsEmailHint"),
            dir: "ltr",
          },
        ]),
        {
          kind: "switch",
          name: "entryGate",
          label: t("general.entryGate"),
          hint: entryGateServerOn ? t("general.entryGateHint") : t("general.entryGateServerOff"),
        },
      ],
    },
    {
      form: "links",
      title: t("links.title"),
      description: t("links.description"),
      fields: [
        // Literal keys, so the catalogue test sees each one in use.
        settingsRow(2, [
          link("discord", t("links.discord")),
          link("whatsapp", t("links.whatsapp")),
          link("telegram", t("links.telegram")),
          link("gamePanel", t("links.gamePanel"), t("links.gamePanelHint")),
          link("databaseAdmin", t("links.databaseAdmin")),
          link("github", t("links.github")),
          link("instagram", t("links.instagram")),
          link("facebook", t("links.facebook")),
        ]),
      ],
    },
    {
      form: "maintenance",
      title: t("maintenance.title"),
      description: t("maintenance.description"),
      aside: <SectionState section="maintenance" holds={maintenanceOn} />,
      fields: [
        {
          kind: "switch",
          id: "maintenance-mode",
          name: "maintenanceMode",
          label: t("maintenance.mode"),
        },
        {
          kind: "textarea",
          rows: 3,
          variant: "validated",
          id: "maintenance-message",
          name: "maintenanceMessage",
          label: t("maintenance.message"),
          hint: t("maintenance.messageHint"),
          maxLength: 500,
          dir: "auto",
        },
        previewLink("preview", "/maintenance", t("maintenance.preview")),
      ],
    },
    {
      form: "theme",
      title: t("theme.title"),
      description: t("theme.description"),
      fields: [
        {
          kind: "custom",
          key: "colours",
          content: <ThemeFields settings={settings} result={result} />,
        },
      ],
    },
    {
      form: "features",
      title: t("features.title"),
      description: t("features.description"),
      fields: [
        {
          kind: "switch",
          name: "registration",
          label: t("features.registration"),
          hint: t("features.registrationHint"),
        },
        {
          kind: "switch",
          name: "coinPurchase",
          label: t("features.coinPurchase"),
          hint: t("features.coinPurchaseHint"),
        },
        {
          kind: "switch",
          name: "livechat",
          label: t("features.livechat"),
          hint: t("features.livechatHint"),
        },
        {
          kind: "switch",
          name: "tickets",
          label: t("features.tickets"),
          hint: t("features.ticketsHint"),
        },
      ],
    },
    {
      form: "seo",
      title: t("seo.title"),
      description: t("seo.description"),
      fields: [
        {
          kind: "input",
          type: "text",
          name: "title",
          label: t("seo.titleField"),
          hint: t("builtInHint"),
          maxLength: 120,
          dir: "auto",
          placeholder: builtIn.seoTitle,
        },
        {
          kind: "textarea",
          rows: 3,
          variant: "validated",
          name: "description",
          label: t("seo.descriptionField"),
          hint: t("builtInHint"),
          maxLength: 300,
          dir: "auto",
          placeholder: builtIn.seoDescription,
        },
        {
          kind: "input",
          type: "text",
          name: "keywords",
          label: t("seo.keywords"),
          hint: t("seo.keywordsHint"),
          maxLength: 300,
          dir: "auto",
        },
      ],
    },
    {
      form: "privacy",
      title: t("privacy.title"),
      description: t("privacy.description"),
      fields: [
        {
          kind: "custom",
          key: "format",
          content: (
            <p className="text-sm text-muted-foreground">
              {t("privacy.formatHint", {
                siteName: "{{siteName}}",
                contactEmail: "{{contactEmail}}",
              })}
            </p>
          ),
        },
        ...(["en", "fr", "ar"] as const).map((lang): FieldSpec => ({
          kind: "textarea",
          rows: 12,
          variant: "validated",
          name: lang,
          label: tCommon(LOCALE_NAMES[lang]),
          hint: lang === "en" ? t("privacy.englishHint") : t("privacy.fallbackHint"),
          maxLength: PRIVACY_TEXT_MAX,
          lang,
          dir: lang === "ar" ? "rtl" : "ltr",
          placeholder: builtIn.privacy[lang],
        })),
        previewLink("view", "/privacy", t("privacy.view")),
      ],
    },
    {
      form: "lifecycle",
      title: t("lifecycle.title"),
      description: t("lifecycle.description"),
      aside: <SectionState section="lifecycle" holds={lifecycleOn} />,
      fields: [
        {
          kind: "switch",
          name: "enabled",
          label: t("lifecycle.enabled"),
          hint: t("lifecycle.enabledHint"),
        },
        settingsRow(3, [
          days("firstReminderDays", t("lifecycle.firstReminderDays"), t("lifecycle.reminderHint")),
          days(
            "secondReminderDays",
            t("lifecycle.secondReminderDays"),
            t("lifecycle.reminderHint"),
          ),
          days("lastReminderDays", t("lifecycle.lastReminderDays"), t("lifecycle.reminderHint")),
        ]),
        settingsRow(3, [
          days("graceDays", t("lifecycle.graceDays"), t("lifecycle.graceDaysHint")),
          days("terminationDays", t("lifecycle.terminationDays"), undefined, 1),
          days("terminationWarningDays", t("lifecycle.terminationWarningDays")),
        ]),
        {
          kind: "switch",
          name: "expireOrders",
          label: t("lifecycle.expireOrders"),
          hint: t("lifecycle.expireOrdersHint"),
        },
        days("orderExpiryDays", t("lifecycle.orderExpiryDays"), undefined, 1),
        {
          kind: "custom",
          key: "preview",
          content: <LifecyclePreviewList preview={lifecycle.preview} locale={lifecycle.locale} />,
        },
      ],
    },
    {
      form: "security",
      title: t("security.title"),
      description: t("security.description"),
      aside: <SectionState section="security" holds={twoFactorRequired} />,
      fields: [
        {
          kind: "switch",
          name: "requireAdminTwoFactor",
          label: t("security.requireAdminTwoFactor"),
          hint: t("security.requireAdminTwoFactorHint"),
        },
        {
          kind: "custom",
          key: "yours",
          content: (
            <p className="text-sm" data-testid="own-two-factor">
              {lifecycle.adminTwoFactor ? t("security.yoursOn") : t("security.yoursOff")}{" "}
              <a
                href={ADMIN_TWO_FACTOR_SETUP_PATH}
                className="text-primary underline hover:no-underline"
              >
                {t("security.manage")}
              </a>
            </p>
          ),
        },
      ],
    },
  ];
}

/**
 * Verified addresses (docs/accounts.md): the requirement, and whether it applies now (only
 * while SMTP_URL is set).
 */
function useVerificationGroup(settings: Settings, mailConfigured: boolean): SettingsGroup {
  const { t } = useTranslation("admin-settings");
  const applies = settings.verification.requireVerifiedEmail && mailConfigured;
  return {
    form: "verification",
    title: t("verification.title"),
    description: t("verification.description"),
    aside: <SectionState section="verification" holds={applies} />,
    fields: [
      {
        kind: "switch",
        name: "requireVerifiedEmail",
        label: t("verification.requireVerifiedEmail"),
        hint: mailConfigured ? t("verification.hint") : t("verification.hintNoMail"),
      },
    ],
  };
}

/** A row of a settings form: its fields two or three abreast from 640 px. */
export function settingsRow(columns: 2 | 3, fields: FieldSpec[]): FieldSpec {
  return { kind: "row", className: SETTINGS_ROWS[columns], fields };
}

const SETTINGS_ROWS = { 2: "grid gap-4 sm:grid-cols-2", 3: "grid gap-4 sm:grid-cols-3" } as const;

type BadgeTone = ComponentProps<typeof Badge>["tone"];

/**
 * The sections that show a state beside their title: the badge's tone and text while the state holds and
 * while it does not (literal keys, for the catalogue test).
 */
const SECTION_STATES = {
  maintenance: { holds: ["yellow", "maintenance.on"], not: ["green", "maintenance.off"] },
  lifecycle: { holds: ["green", "lifecycle.on"], not: ["yellow", "lifecycle.off"] },
  security: { holds: ["green", "security.on"], not: ["grey", "security.off"] },
  verification: {
    holds: ["green", "verification.applies"],
    not: ["yellow", "verification.notApplied"],
  },
  invoicing: { holds: ["green", "invoicing.vatOn"], not: ["grey", "invoicing.vatOff"] },
} as const satisfies Partial<
  Record<SettingsForm, Record<"holds" | "not", readonly [BadgeTone, string]>>
>;

/** A section's state beside its title: one badge, whose tone and text say whether the state holds. */
export function SectionState({
  section,
  holds,
}: {
  section: keyof typeof SECTION_STATES;
  holds: boolean;
}) {
  const { t } = useTranslation("admin-settings");
  const [tone, text] = SECTION_STATES[section][holds ? "holds" : "not"];
  return <Badge tone={tone}>{t(text)}</Badge>;
}

// Literal keys (admin-settings namespace) for the catalogue test, in the order a run takes them.
const PREVIEW_SERVICE_LABELS = {
  renew: "lifecycle.actions.renew",
  short: "lifecycle.actions.short",
  suspend: "lifecycle.actions.suspend",
  terminate: "lifecycle.actions.terminate",
  warn: "lifecycle.actions.warn",
  remind: "lifecycle.actions.remind",
} as const satisfies Record<keyof LifecyclePreview["services"], string>;
const PREVIEW_COUNTS = {
  renew: "renewed",
  short: "renewalShort",
  suspend: "suspended",
  terminate: "terminated",
  warn: "warned",
  remind: "reminded",
} as const satisfies Record<keyof LifecyclePreview["services"], keyof LifecyclePreview["counts"]>;

/**
 * "Preview": what the next run of the service lifecycle would do, service by service (the first few of
 * each action, with how many more), each linked to its customer's page; nothing is done.
 */
export function LifecyclePreviewList({
  preview,
  locale,
}: {
  preview: LifecyclePreview;
  locale: string;
}) {
  const { t } = useTranslation("admin-settings");
  const date = mediumDate(locale);
  // The preview's own moment, not this render's clock: the browser's hydration says what the server did.
  const now = new Date(preview.now);
  const nothing = Object.values(preview.counts).every((count) => count === 0);
  const detail = (
    action: keyof LifecyclePreview["services"],
    service: LifecycleService & { days?: number; missingCents?: number },
  ) => {
    if (action === "remind" && service.days)
      return t("lifecycle.previewDays", { days: service.days });
    if (action === "short" && service.missingCents)
      return t("lifecycle.previewMissing", { amount: formatEuros(service.missingCents, locale) });
    if ((action === "warn" || action === "terminate") && service.suspendedAt)
      return t("lifecycle.previewSuspended", { date: date.format(new Date(service.suspendedAt)) });
    return t(
      expiryPassed(service.expiresAt, now)
        ? "lifecycle.previewExpired"
        : "lifecycle.previewExpires",
      {
        date: date.format(new Date(service.expiresAt)),
      },
    );
  };
  const more = (count: number, shown: number) =>
    count > shown ? (
      <li className="text-muted-foreground">
        {t("lifecycle.previewMore", { number: count - shown })}
      </li>
    ) : null;
  return (
    <section
      aria-labelledby="lifecycle-preview-title"
      className="grid gap-3 rounded-lg border p-4"
      data-testid="lifecycle-preview"
    >
      <h3 id="lifecycle-preview-title" className="font-semibold">
        {t("lifecycle.previewTitle")}
      </h3>
      {preview.enabled ? null : (
        <p className="text-sm text-muted-foreground">{t("lifecycle.previewOff")}</p>
      )}
      {nothing ? <p className="text-sm">{t("lifecycle.previewNothing")}</p> : null}
      {(Object.keys(PREVIEW_SERVICE_LABELS) as (keyof typeof PREVIEW_SERVICE_LABELS)[]).map(
        (action) => {
          const count = preview.counts[PREVIEW_COUNTS[action]];
          if (count === 0) return null;
          const services = preview.services[action];
          return (
            <div key={action} className="grid gap-1 text-sm">
              <h4 className="font-medium">
                {t(PREVIEW_SERVICE_LABELS[action])} <Badge tone="blue">{count}</Badge>
              </h4>
              <ul className="grid gap-1 ps-4">
                {services.map((service) => (
                  <li key={service.serviceId} data-service-id={service.serviceId}>
                    <a
                      href={`/admin/clients/${service.userId}`}
                      className="text-primary hover:underline"
                    >
                      <bdi>{service.name}</bdi> #{service.serviceId}
                    </a>{" "}
                    <span dir="ltr" className="break-all">
                      {service.userEmail}
                    </span>{" "}
                    · {detail(action, service)}
                  </li>
                ))}
                {more(count, services.length)}
              </ul>
            </div>
          );
        },
      )}
      {preview.counts.ordersExpired > 0 ? (
        <div className="grid gap-1 text-sm">
          <h4 className="font-medium">
            {t("lifecycle.actions.ordersExpired")}{" "}
            <Badge tone="blue">{preview.counts.ordersExpired}</Badge>
          </h4>
          <ul className="grid gap-1 ps-4">
            {preview.orders.map((order) => (
              <li key={order.orderId} data-order-id={order.orderId}>
                <a href={`/admin/clients/${order.userId}`} className="text-primary hover:underline">
                  #{order.orderId} <bdi>{order.productName}</bdi>
                </a>{" "}
                <span dir="ltr" className="break-all">
                  {order.userEmail}
                </span>{" "}
                · {t("lifecycle.previewPlaced", { date: date.format(new Date(order.createdAt)) })}
              </li>
            ))}
            {more(preview.counts.ordersExpired, preview.orders.length)}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

const COLOUR_FIELDS = ["primaryColor", "secondaryColor", "accentColor"] as const;
type ColourField = (typeof COLOUR_FIELDS)[number];

/** The theme's colours: a picker and a code for each, and a preview that follows what is typed. */
function ThemeFields({ settings, result }: { settings: Settings; result?: SettingsActionResult }) {
  const { t } = useTranslation("admin-settings");
  const message = useMessage();
  const state = useFormState("theme", settings.theme, result);
  // The typed colours, so the preview follows them before anything is saved.
  const [colours, setColours] = useState<Record<ColourField, string>>(() => ({
    primaryColor: state.text("primaryColor"),
    secondaryColor: state.text("secondaryColor"),
    accentColor: state.text("accentColor"),
  }));
  const valid = (field: ColourField) =>
    isHexColor(colours[field]) ? colours[field].toLowerCase() : settings.theme[field];
  const preview = themeVariables({
    primaryColor: valid("primaryColor"),
    secondaryColor: valid("secondaryColor"),
    accentColor: valid("accentColor"),
  });
  const labels = {
    primaryColor: {
      label: t("theme.primaryColor"),
      hint: t("theme.primaryHint"),
      pick: t("theme.pickPrimary"),
    },
    secondaryColor: {
      label: t("theme.secondaryColor"),
      hint: t("theme.secondaryHint"),
      pick: t("theme.pickSecondary"),
    },
    accentColor: {
      label: t("theme.accentColor"),
      hint: t("theme.accentHint"),
      pick: t("theme.pickAccent"),
    },
  };
  return (
    <>
      <div className="grid gap-4 md:grid-cols-3">
        {COLOUR_FIELDS.map((field) => {
          const id = `theme-${field}`;
          const error = message(state.errors[field]);
          return (
            <Field
              key={field}
              id={id}
              label={labels[field].label}
              hint={labels[field].hint}
              error={error}
            >
              <div className="flex items-center gap-2">
                {/* The picker has no name: the text field is what is sent, so the form works without
                    JavaScript and a typed code is never overwritten by the picker. */}
                <input
                  type="color"
                  value={valid(field)}
                  onChange={(event) =>
                    setColours((current) => ({ ...current, [field]: event.target.value }))
                  }
                  aria-label={labels[field].pick}
                  className="h-10 w-12 shrink-0 cursor-pointer rounded-md border bg-background p-1"
                />
                <Input
                  id={id}
                  name={field}
                  value={colours[field]}
                  onChange={(event) =>
                    setColours((current) => ({ ...current, [field]: event.target.value }))
                  }
                  maxLength={7}
                  dir="ltr"
                  spellCheck={false}
                  autoComplete="off"
                  className="font-mono"
                  {...fieldAria(id, error, { hint: true })}
                />
              </div>
            </Field>
          );
        })}
      </div>
      <section
        aria-label={t("theme.preview")}
        style={preview as React.CSSProperties}
        className="overflow-hidden rounded-lg border"
        data-testid="theme-preview"
      >
        <p className="border-b bg-muted px-3 py-1 text-xs font-semibold text-muted-foreground uppercase">
          {t("theme.preview")}
        </p>
        <div className="flex flex-wrap items-center gap-3 bg-background p-4">
          <span className="flex size-8 items-center justify-center rounded-md bg-primary text-sm font-bold text-primary-foreground">
            H
          </span>
          <span className="inline-flex h-10 items-center rounded-md bg-primary px-4 text-sm font-medium text-primary-foreground">
            {t("theme.previewButton")}
          </span>
          <span className="text-sm font-medium text-primary underline">
            {t("theme.previewLink")}
          </span>
          <span className="rounded-full bg-accent px-2.5 py-0.5 text-xs font-semibold text-accent-foreground">
            {t("theme.previewAccent")}
          </span>
        </div>
        <div className="bg-secondary p-4 text-sm text-secondary-foreground">
          {t("theme.previewBand")}
        </div>
      </section>
    </>
  );
}
