import { EyeIcon } from "lucide-react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Form, useNavigation } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { StatusMessage } from "~/components/ui/status-message";
import type { Settings, SettingsForm } from "~/domain/settings/settings";
import { isHexColor, themeVariables } from "~/domain/settings/theme";
import { messageKey } from "~/lib/message-key";

export type SettingsActionResult =
  | { ok: true; form: SettingsForm; message: string }
  | {
      ok: false;
      form: SettingsForm | null;
      message: string;
      fieldErrors: Record<string, string>;
      values: Record<string, string>;
    };

/** The built-in texts an empty field stands for, in the admin's language (shown as placeholders). */
export interface BuiltInTexts {
  siteDescription: string;
  seoTitle: string;
  seoDescription: string;
}

const selectClass =
  "flex h-10 w-full rounded-md border bg-background px-3 py-2 text-base md:text-sm";
const textareaClass =
  "w-full rounded-md border bg-background px-3 py-2 text-base aria-invalid:border-destructive md:text-sm";

// Language names, literal keys (common namespace) for the catalogue test.
const LOCALE_NAMES = { en: "language.en", fr: "language.fr", ar: "language.ar" } as const;

/**
 * What one form shows: the stored settings, or after a refused save of this form what was typed with
 * its errors (nothing of it was saved).
 */
function useFormState(
  form: SettingsForm,
  stored: Record<string, unknown>,
  result?: SettingsActionResult,
) {
  const { t } = useTranslation("admin-settings");
  const tr = t as (key: string) => string;
  const mine = result && result.form === form ? result : undefined;
  const refused = mine && !mine.ok ? mine : undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === form;
  return {
    busy,
    status: mine ? { ok: mine.ok, text: tr(messageKey(mine.message)) } : null,
    error: (field: string) => {
      const key = refused?.fieldErrors[field];
      return key ? tr(messageKey(key)) : undefined;
    },
    text: (field: string) =>
      refused ? (refused.values[field] ?? "") : String(stored[field] ?? ""),
    checked: (field: string) => (refused ? refused.values[field] === "on" : stored[field] === true),
  };
}

type FormState = ReturnType<typeof useFormState>;

/** Ties a control to its error (Field renders `${id}-error`) and to its hint (`${id}-hint`). */
function describe(id: string, error?: string, hint?: string) {
  const ids = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean);
  return {
    "aria-invalid": error ? (true as const) : undefined,
    "aria-describedby": ids.length > 0 ? ids.join(" ") : undefined,
  };
}

function SettingsCard({
  form,
  title,
  description,
  state,
  children,
  aside,
}: {
  form: SettingsForm;
  title: string;
  description: string;
  state: FormState;
  children: ReactNode;
  aside?: ReactNode;
}) {
  const { t } = useTranslation("admin-settings");
  return (
    <Card id={form} className="scroll-mt-20">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle>{title}</CardTitle>
          {aside}
        </div>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-4" noValidate aria-label={title}>
          <input type="hidden" name="intent" value={form} />
          {state.status ? (
            <StatusMessage ok={state.status.ok}>{state.status.text}</StatusMessage>
          ) : null}
          {children}
          <Button type="submit" disabled={state.busy} aria-busy={state.busy} className="w-fit">
            {state.busy ? t("saving") : t("save")}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}

function TextField({
  id,
  name,
  label,
  state,
  hint,
  type = "text",
  maxLength,
  dir,
  placeholder,
  multiline,
}: {
  id: string;
  name: string;
  label: string;
  state: FormState;
  hint?: string;
  type?: "text" | "email" | "url";
  maxLength?: number;
  dir?: "ltr" | "auto";
  placeholder?: string;
  multiline?: boolean;
}) {
  const error = state.error(name);
  const common = {
    id,
    name,
    maxLength,
    dir,
    placeholder,
    defaultValue: state.text(name),
    ...describe(id, error, hint),
  };
  return (
    <Field id={id} label={label} error={error}>
      {multiline ? (
        <textarea rows={3} className={textareaClass} {...common} />
      ) : (
        <Input type={type} {...common} />
      )}
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </Field>
  );
}

function Switch({
  id,
  name,
  label,
  hint,
  state,
}: {
  id: string;
  name: string;
  label: string;
  hint?: string;
  state: FormState;
}) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        name={name}
        type="checkbox"
        defaultChecked={state.checked(name)}
        className="mt-1 size-4 shrink-0 accent-primary"
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <div className="grid gap-1">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        {hint ? (
          <p id={`${id}-hint`} className="text-sm text-muted-foreground">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}

export function SettingsPage({
  settings,
  builtIn,
  entryGateServerOn,
  result,
}: {
  settings: Settings;
  builtIn: BuiltInTexts;
  /** ENTRY_GATE=on at start: only then does the entry gate setting matter. */
  entryGateServerOn: boolean;
  result?: SettingsActionResult;
}) {
  const { t } = useTranslation("admin-settings");
  const tr = t as (key: string) => string;
  const unknown = result && !result.ok && result.form === null ? result : undefined;
  return (
    <main className="grid max-w-4xl gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-bold">{t("title")}</h1>
        <p className="text-muted-foreground">{t("intro")}</p>
      </div>
      {unknown ? <StatusMessage ok={false}>{tr(messageKey(unknown.message))}</StatusMessage> : null}
      <nav aria-label={t("sections")}>
        <ul className="flex flex-wrap gap-2 text-sm">
          {(
            [
              ["general", t("general.title")],
              ["links", t("links.title")],
              ["maintenance", t("maintenance.title")],
              ["theme", t("theme.title")],
              ["features", t("features.title")],
              ["seo", t("seo.title")],
            ] as const
          ).map(([id, label]) => (
            <li key={id}>
              <a href={`#${id}`} className="rounded-md border px-3 py-1 hover:bg-muted">
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <GeneralForm
        settings={settings}
        builtIn={builtIn}
        entryGateServerOn={entryGateServerOn}
        result={result}
      />
      <LinksForm settings={settings} result={result} />
      <MaintenanceForm settings={settings} result={result} />
      <ThemeForm settings={settings} result={result} />
      <FeaturesForm settings={settings} result={result} />
      <SeoForm settings={settings} builtIn={builtIn} result={result} />
    </main>
  );
}

function GeneralForm({
  settings,
  builtIn,
  entryGateServerOn,
  result,
}: {
  settings: Settings;
  builtIn: BuiltInTexts;
  entryGateServerOn: boolean;
  result?: SettingsActionResult;
}) {
  const { t } = useTranslation("admin-settings");
  const { t: tCommon } = useTranslation();
  const state = useFormState("general", settings.general, result);
  const locale = state.text("defaultLocale");
  return (
    <SettingsCard
      form="general"
      title={t("general.title")}
      description={t("general.description")}
      state={state}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="general-siteName"
          name="siteName"
          label={t("general.siteName")}
          maxLength={80}
          dir="auto"
          state={state}
        />
        <Field
          id="general-defaultLocale"
          label={t("general.defaultLocale")}
          error={state.error("defaultLocale")}
        >
          <select
            id="general-defaultLocale"
            name="defaultLocale"
            defaultValue={locale}
            className={selectClass}
            aria-describedby="general-defaultLocale-hint"
          >
            {(["en", "fr", "ar"] as const).map((lang) => (
              <option key={lang} value={lang} lang={lang}>
                {tCommon(LOCALE_NAMES[lang])}
              </option>
            ))}
          </select>
          <p id="general-defaultLocale-hint" className="text-sm text-muted-foreground">
            {t("general.defaultLocaleHint")}
          </p>
        </Field>
      </div>
      <TextField
        id="general-siteDescription"
        name="siteDescription"
        label={t("general.siteDescription")}
        hint={t("builtInHint")}
        placeholder={builtIn.siteDescription}
        maxLength={300}
        dir="auto"
        multiline
        state={state}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="general-contactEmail"
          name="contactEmail"
          type="email"
          label={t("general.contactEmail")}
          dir="ltr"
          state={state}
        />
        <TextField
          id="general-paymentsEmail"
          name="paymentsEmail"
          type="email"
          label={t("general.paymentsEmail")}
          hint={t("general.paymentsEmailHint")}
          dir="ltr"
          state={state}
        />
      </div>
      <Switch
        id="general-entryGate"
        name="entryGate"
        label={t("general.entryGate")}
        hint={entryGateServerOn ? t("general.entryGateHint") : t("general.entryGateServerOff")}
        state={state}
      />
    </SettingsCard>
  );
}

function LinksForm({ settings, result }: { settings: Settings; result?: SettingsActionResult }) {
  const { t } = useTranslation("admin-settings");
  const state = useFormState("links", settings.links, result);
  // Literal keys, so the catalogue test sees each one in use.
  const fields = [
    ["discord", t("links.discord")],
    ["whatsapp", t("links.whatsapp")],
    ["telegram", t("links.telegram")],
    ["gamePanel", t("links.gamePanel")],
    ["databaseAdmin", t("links.databaseAdmin")],
    ["github", t("links.github")],
    ["instagram", t("links.instagram")],
    ["facebook", t("links.facebook")],
  ] as const;
  return (
    <SettingsCard
      form="links"
      title={t("links.title")}
      description={t("links.description")}
      state={state}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        {fields.map(([name, label]) => (
          <TextField
            key={name}
            id={`links-${name}`}
            name={name}
            label={label}
            type="url"
            dir="ltr"
            maxLength={500}
            placeholder="https://"
            state={state}
          />
        ))}
      </div>
    </SettingsCard>
  );
}

function MaintenanceForm({
  settings,
  result,
}: {
  settings: Settings;
  result?: SettingsActionResult;
}) {
  const { t } = useTranslation("admin-settings");
  const state = useFormState("maintenance", settings.general, result);
  const on = settings.general.maintenanceMode;
  return (
    <SettingsCard
      form="maintenance"
      title={t("maintenance.title")}
      description={t("maintenance.description")}
      state={state}
      aside={
        <Badge tone={on ? "yellow" : "green"}>
          {on ? t("maintenance.on") : t("maintenance.off")}
        </Badge>
      }
    >
      <Switch
        id="maintenance-mode"
        name="maintenanceMode"
        label={t("maintenance.mode")}
        state={state}
      />
      <TextField
        id="maintenance-message"
        name="maintenanceMessage"
        label={t("maintenance.message")}
        hint={t("maintenance.messageHint")}
        maxLength={500}
        dir="auto"
        multiline
        state={state}
      />
      <a
        href="/maintenance"
        target="_blank"
        rel="noopener"
        className="inline-flex w-fit items-center gap-2 text-sm text-primary hover:underline"
      >
        <EyeIcon className="size-4" aria-hidden />
        {t("maintenance.preview")}
      </a>
    </SettingsCard>
  );
}

const COLOUR_FIELDS = ["primaryColor", "secondaryColor", "accentColor"] as const;
type ColourField = (typeof COLOUR_FIELDS)[number];

function ThemeForm({ settings, result }: { settings: Settings; result?: SettingsActionResult }) {
  const { t } = useTranslation("admin-settings");
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
    <SettingsCard
      form="theme"
      title={t("theme.title")}
      description={t("theme.description")}
      state={state}
    >
      <div className="grid gap-4 md:grid-cols-3">
        {COLOUR_FIELDS.map((field) => {
          const id = `theme-${field}`;
          const error = state.error(field);
          return (
            <Field key={field} id={id} label={labels[field].label} error={error}>
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
                  {...describe(id, error, labels[field].hint)}
                />
              </div>
              <p id={`${id}-hint`} className="text-sm text-muted-foreground">
                {labels[field].hint}
              </p>
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
    </SettingsCard>
  );
}

function FeaturesForm({ settings, result }: { settings: Settings; result?: SettingsActionResult }) {
  const { t } = useTranslation("admin-settings");
  const state = useFormState("features", settings.features, result);
  return (
    <SettingsCard
      form="features"
      title={t("features.title")}
      description={t("features.description")}
      state={state}
    >
      <Switch
        id="features-registration"
        name="registration"
        label={t("features.registration")}
        hint={t("features.registrationHint")}
        state={state}
      />
      <Switch
        id="features-coinPurchase"
        name="coinPurchase"
        label={t("features.coinPurchase")}
        hint={t("features.coinPurchaseHint")}
        state={state}
      />
      <Switch
        id="features-livechat"
        name="livechat"
        label={t("features.livechat")}
        hint={t("features.livechatHint")}
        state={state}
      />
      <Switch
        id="features-tickets"
        name="tickets"
        label={t("features.tickets")}
        hint={t("features.ticketsHint")}
        state={state}
      />
    </SettingsCard>
  );
}

function SeoForm({
  settings,
  builtIn,
  result,
}: {
  settings: Settings;
  builtIn: BuiltInTexts;
  result?: SettingsActionResult;
}) {
  const { t } = useTranslation("admin-settings");
  const state = useFormState("seo", settings.seo, result);
  return (
    <SettingsCard
      form="seo"
      title={t("seo.title")}
      description={t("seo.description")}
      state={state}
    >
      <TextField
        id="seo-title"
        name="title"
        label={t("seo.titleField")}
        hint={t("builtInHint")}
        placeholder={builtIn.seoTitle}
        maxLength={120}
        dir="auto"
        state={state}
      />
      <TextField
        id="seo-description"
        name="description"
        label={t("seo.descriptionField")}
        hint={t("builtInHint")}
        placeholder={builtIn.seoDescription}
        maxLength={300}
        dir="auto"
        multiline
        state={state}
      />
      <TextField
        id="seo-keywords"
        name="keywords"
        label={t("seo.keywords")}
        hint={t("seo.keywordsHint")}
        maxLength={300}
        dir="auto"
        state={state}
      />
    </SettingsCard>
  );
}
