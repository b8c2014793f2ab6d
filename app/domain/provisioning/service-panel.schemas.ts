import { idField } from "~/lib/id-field";
import { z } from "~/lib/zod";

// Schemas only (docs/architecture.md): the admin's actions on a service's panel side.

/** /admin/services/:id/panel: retry, reinstall, or re-link to a server that exists on the panel. */
export const servicePanelActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("retry") }),
  z.object({ intent: z.literal("reinstall") }),
  z.object({
    intent: z.literal("relink"),
    server: z
      .string({ error: "provisioning.errors.serverRequired" })
      .trim()
      .regex(/^[A-Za-z0-9-]{1,64}$/, "provisioning.errors.serverRequired"),
  }),
]);
export type ServicePanelAction = z.output<typeof servicePanelActionSchema>;

export const servicePanelIdSchema = idField("services.errors.notFound");
