import { useState } from "react";
import { Field, fieldAria } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import type { Settings } from "~/domain/settings/settings";
import { isHexColor, themeVariables } from "~/domain/settings/theme";
import { useMessage } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { useFormState, type SettingsActionResult, type SettingsGroup } from "./settings-group";

/** The storefront's colours, with a preview of them. */
export function useThemeGroup(settings: Settings, result?: SettingsActionResult): SettingsGroup {
  const { t } = useTranslation("admin-settings");
  return {
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
  };
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
