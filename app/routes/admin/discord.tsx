import { data } from "react-router";
import { discordSettingsSchema } from "~/domain/discord/discord.schemas";
import {
  readDiscordRoleSettings,
  saveDiscordRoleSettings,
} from "~/domain/discord/discord-roles.server";
import {
  DiscordSettingsPage,
  type DiscordSettingsResult,
} from "~/features/admin-settings/discord-page";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { discordSignInOffered } from "~/http/discord.server";
import { refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/discord";
import { requestContext } from "~/context.server";

// /admin/settings/discord (docs/discord.md): the bot, server and role of the customers' Discord role.
export const loader = adminLoader(requestContext, {
  title: "discord.settings.title",
  permission: "settings.manage",
  load: async ({ db, context }) => ({
    settings: await readDiscordRoleSettings(db),
    signInOn: discordSignInOffered(context),
  }),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export const action = adminAction(
  requestContext,
  "settings.manage",
  discordSettingsSchema,
  (form) =>
    data(
      {
        ok: false,
        message: "discord.settings.saveFailed",
        fieldErrors: form.fieldErrors,
        // Never the token: what was typed in it is not sent back to the page.
        values: { ...form.values, botToken: "" },
      } satisfies DiscordSettingsResult,
      { status: 400 },
    ),
  async ({ db, admin, input, context }) => {
    const result = await saveDiscordRoleSettings(
      db,
      { ...input, actorId: admin.id },
      { secret: context.services.env.AUTH_SECRET, now: context.services.clock() },
    );
    if (!result.ok)
      return refusal(result, {
        fieldErrors: "field" in result ? { [result.field]: result.error } : undefined,
        values: { guildId: input.guildId, roleId: input.roleId, botToken: "" },
      });
    return { ok: true, message: "discord.settings.saved" } satisfies DiscordSettingsResult;
  },
);

export default function AdminDiscord({ loaderData, actionData }: Route.ComponentProps) {
  return <DiscordSettingsPage {...loaderData} result={actionData} />;
}
