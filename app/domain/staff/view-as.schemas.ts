import { z } from "~/lib/zod";

/** The client page's "View as this customer" post: its intent alone (the customer is the URL's `:id`). */
export const viewAsStartSchema = z.object({ intent: z.literal("view-as") });
