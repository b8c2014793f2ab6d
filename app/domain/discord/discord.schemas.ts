import { z } from "~/lib/zod";
import { DISCORD_REFUSALS } from "./discord";

// Schemas only: actions, loaders, *.server.ts and tests import this file (docs/architecture.md).

/**
 * What Discord sends back on the callback: its code and our state, or its error. Anything else is
 * dropped; a value too long to be Discord's is refused (the page then says it did not work).
 */
export const discordCallbackQuerySchema = z
  .object({
    code: z.string().max(512).optional(),
    state: z.string().max(512).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(1000).optional(),
  })
  .transform((query) =>
    Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)),
  );

/** `?discord=<refusal>` on the sign-in page or the account tab: said there; anything else ignored. */
export const discordRefusalQuerySchema = z.object({
  discord: z
    .enum([...DISCORD_REFUSALS, "linked", "unlinked"])
    .optional()
    .catch(undefined),
});

/** The account tab's Discord card. */
export const discordAccountActionSchema = z.object({
  intent: z.enum(["discord-link", "discord-unlink"]),
});

/** /admin/settings/discord: ids are checked by the save (digits); an empty token keeps the saved one. */
export const discordSettingsSchema = z.object({
  intent: z.literal("role"),
  guildId: z.string().trim().max(40).default(""),
  roleId: z.string().trim().max(40).default(""),
  botToken: z
    .string()
    .trim()
    .max(200, "discord.settings.errors.tokenRequired")
    .optional()
    .transform((text) => (text ? text : null)),
});
