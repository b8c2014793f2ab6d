import type { RequestContext } from "~/context.server";
import { isDiscordRefusal, type DiscordRefusal } from "~/domain/discord/discord";
import { discordRefusalQuerySchema } from "~/domain/discord/discord.schemas";

/** Whether the Discord application is configured (docs/discord.md): without it no button appears. */
export function discordSignInOffered(context: RequestContext): boolean {
  const { env } = context.services;
  return Boolean(env.DISCORD_CLIENT_ID && env.DISCORD_CLIENT_SECRET);
}

/**
 * What a page that offers Discord shows: the button (when configured), and the refusal or outcome a
 * return from Discord brought in `?discord=`.
 */
export function discordPageState(
  context: RequestContext,
  url: URL,
): { offered: boolean; refusal: DiscordRefusal | null; outcome: "linked" | "unlinked" | null } {
  const { discord } = discordRefusalQuerySchema.parse({
    discord: url.searchParams.get("discord") ?? undefined,
  });
  return {
    offered: discordSignInOffered(context),
    refusal: isDiscordRefusal(discord) ? discord : null,
    outcome: discord === "linked" || discord === "unlinked" ? discord : null,
  };
}
