import { requiredText, z } from "~/lib/zod";
import { gamePanelFormSchema } from "~/domain/settings/settings.schemas";
import { panelBaseUrl } from "./panel-address";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/** The form's field of one order location's panel location: `location.<id>`. */
export const LOCATION_FIELD_PREFIX = "location.";

/**
 * A panel's address: http(s), no credentials, no query nor fragment (not even an empty one); kept as
 * panelBaseUrl writes it (lower-case host, no default port, no trailing slash). Whether it may be on
 * the local network is the save's to say (it reads the setting).
 */
const urlField = requiredText("provisioning.errors.urlInvalid", 300)
  .refine((text) => panelBaseUrl(text) !== null, "provisioning.errors.urlInvalid")
  .transform((text) => panelBaseUrl(text)!);

/** Empty keeps the saved key (the page never shows it); otherwise an Application API key. */
const keyField = z
  .string()
  .trim()
  .optional()
  .transform((text) => (text ? text : null))
  .refine(
    (key) => key === null || /^ptla_[A-Za-z0-9_-]{8,200}$/.test(key),
    "provisioning.errors.keyFormat",
  );

/**
 * Empty keeps the saved client key (never shown either), if any; otherwise a Client API key, which the
 * panel makes under a user's account (API credentials): a root admin's, so it reaches every server.
 */
const clientKeyField = z
  .string()
  .trim()
  .optional()
  .transform((text) => (text ? text : null))
  .refine(
    (key) => key === null || /^ptlc_[A-Za-z0-9_-]{8,200}$/.test(key),
    "provisioning.errors.clientKeyFormat",
  );

/** A location's choice: empty for none, else the panel location's id. */
const locationChoice = z
  .string()
  .trim()
  .refine((text) => text === "" || /^\d{1,9}$/.test(text), "provisioning.errors.locationInvalid")
  .transform((text) => (text === "" ? [] : [Number(text)]));

/**
 * /admin/settings/game-panel: save the connection, ask a job to check it, remove the client key, or say
 * whether the panel may be on the local network (the setting gamePanel.allowLocalNetwork).
 */
export const gamePanelActionSchema = z.discriminatedUnion("intent", [
  z
    .object({
      intent: z.literal("save"),
      url: urlField,
      apiKey: keyField,
      clientKey: clientKeyField,
    })
    .catchall(z.string())
    .superRefine((form, ctx) => {
      for (const [name, value] of Object.entries(form)) {
        if (!name.startsWith(LOCATION_FIELD_PREFIX)) continue;
        if (!locationChoice.safeParse(value).success)
          ctx.addIssue({
            code: "custom",
            message: "provisioning.errors.locationInvalid",
            path: [name],
          });
      }
    })
    .transform((form) => {
      const locationMap: Record<string, number[]> = {};
      for (const [name, value] of Object.entries(form)) {
        if (!name.startsWith(LOCATION_FIELD_PREFIX)) continue;
        const ids = locationChoice.parse(value);
        if (ids.length > 0) locationMap[name.slice(LOCATION_FIELD_PREFIX.length)] = ids;
      }
      return {
        intent: "save" as const,
        url: form.url,
        apiKey: form.apiKey,
        clientKey: form.clientKey,
        locationMap,
      };
    }),
  z.object({ intent: z.literal("check") }),
  z.object({ intent: z.literal("removeClientKey") }),
  gamePanelFormSchema.extend({ intent: z.literal("network") }),
]);
export type GamePanelAction = z.output<typeof gamePanelActionSchema>;
