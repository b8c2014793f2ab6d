import { Badge } from "~/components/ui/badge";
import { FormCard, FormFields, type FieldSpec } from "~/components/ui/form-card";
import { PageHeading } from "~/components/ui/page-heading";
import { ResultText, type ActionResult } from "~/components/ui/result-message";
import type { DiscordRoleSettingsView } from "~/domain/discord/discord";
import { useTranslation } from "~/i18n/use-translation";
import { useBusy } from "~/components/ui/use-busy";

export type DiscordSettingsResult = ActionResult;

/**
 * /admin/settings/discord (docs/discord.md): the bot, server and role of the customers' "client" role.
 * The token is never shown again once saved (its last four characters only); an empty field keeps it.
 * Whether "Sign in with Discord" is on is said here: it comes from the server's configuration.
 */
export function DiscordSettingsPage({
  settings,
  signInOn,
  result,
}: {
  settings: DiscordRoleSettingsView;
  signInOn: boolean;
  result?: DiscordSettingsResult;
}) {
  const { t } = useTranslation("discord");
  const { t: tSettings } = useTranslation("admin-settings");
  const busy = useBusy();
  const fields: FieldSpec[] = [
    {
      kind: "input",
      name: "guildId",
      label: t("settings.guildId"),
      inputMode: "numeric",
      required: true,
      maxLength: 40,
      dir: "ltr",
    },
    {
      kind: "input",
      name: "roleId",
      label: t("settings.roleId"),
      inputMode: "numeric",
      required: true,
      maxLength: 40,
      dir: "ltr",
    },
    {
      kind: "password",
      name: "botToken",
      label: t("settings.botToken"),
      hint: settings.tokenLast4
        ? t("settings.tokenSaved", { last4: settings.tokenLast4 })
        : undefined,
      showLabel: t("settings.showToken"),
      hideLabel: t("settings.hideToken"),
      autoComplete: "off",
      maxLength: 200,
    },
  ];
  const typed = result && !result.ok ? result.values : undefined;
  return (
    <main className="grid gap-6">
      <PageHeading
        title={t("settings.title")}
        intro={t("settings.intro")}
        parent={{ to: "/admin/settings", label: t("settings.backToSettings") }}
      />
      <p className="text-sm" data-testid="discord-sign-in-state">
        {t("settings.signInState", {
          state: signInOn ? t("settings.signInOn") : t("settings.signInOff"),
        })}
      </p>
      <FormCard
        id="role"
        title={t("settings.roleTitle")}
        description={t("settings.tokenHint")}
        aside={
          settings.tokenLast4 ? (
            <Badge tone="green">{t("settings.configured")}</Badge>
          ) : (
            <Badge tone="grey">{t("settings.notConfigured")}</Badge>
          )
        }
        status={result ? { ok: result.ok, text: <ResultText result={result} /> } : null}
        busy={busy}
        submit={{ label: t("settings.save"), busyLabel: tSettings("saving") }}
      >
        <FormFields
          key={settings.updatedAt ?? "new"}
          fields={fields}
          idPrefix="discord"
          values={typed ?? { guildId: settings.guildId, roleId: settings.roleId, botToken: "" }}
          errors={result?.fieldErrors}
        />
      </FormCard>
    </main>
  );
}
