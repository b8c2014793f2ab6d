import { EyeIcon } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { useNavigation } from "react-router";
import { Badge } from "~/components/ui/badge";
import type { FieldSpec } from "~/components/ui/form-card";
import type { ActionResult } from "~/components/ui/result-message";
import { SETTINGS_FORM_FIELDS, type SettingsForm } from "~/domain/settings/settings";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";

// What the settings page's groups share: what a group is, what a save answers, the state of a form's
// fields, a row of fields, a section's state badge and a link to the page a setting shows. The groups
// (one file each, or a few that belong together) import this; the page imports the groups.

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
export const LOCALE_NAMES = { en: "language.en", fr: "language.fr", ar: "language.ar" } as const;

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
export function useFormState(
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

/** A field list's link to the public page a setting shows, opened in a new tab to see it. */
export function previewLink(key: string, href: string, label: string): FieldSpec {
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
  security: { holds: ["green", "security.on"], not: ["yellow", "security.off"] },
  payments: { holds: ["yellow", "payments.on"], not: ["green", "payments.off"] },
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
