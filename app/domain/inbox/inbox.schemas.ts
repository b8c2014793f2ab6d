import { idField } from "~/lib/id-field";
import { pageParam, searchParam } from "~/lib/query-params";
import { z } from "~/lib/zod";
import { CONTACT_FILTERS } from "./inbox";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

const rowId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** /admin/contact-messages' query string: anything unexpected falls back to the default. */
export const contactListQuerySchema = z.object({
  q: searchParam,
  show: z.enum(CONTACT_FILTERS).catch("all"),
  /** The message shown in full. */
  open: rowId.optional().catch(undefined),
  page: pageParam,
});
export type ContactListQuery = z.infer<typeof contactListQuerySchema>;

const messageId = z.object({
  id: idField("admin-inbox.errors.messageNotFound", Number.MAX_SAFE_INTEGER),
});

/** The contact messages page's actions: open (marks read), mark read or unread, delete. */
export const contactActionSchema = z.discriminatedUnion(
  "intent",
  [
    messageId.extend({ intent: z.literal("open") }),
    messageId.extend({ intent: z.literal("read") }),
    messageId.extend({ intent: z.literal("unread") }),
    messageId.extend({ intent: z.literal("delete") }),
  ],
  { error: "admin-inbox.errors.unknownAction" },
);
export type ContactActionInput = z.infer<typeof contactActionSchema>;

/** /admin/newsletter's query string. */
export const subscriberListQuerySchema = z.object({ q: searchParam, page: pageParam });
export type SubscriberListQuery = z.infer<typeof subscriberListQuerySchema>;

export const subscriberActionSchema = z.object(
  {
    intent: z.literal("remove", { error: "admin-inbox.errors.unknownAction" }),
    id: idField("admin-inbox.errors.subscriberNotFound", Number.MAX_SAFE_INTEGER),
  },
  { error: "admin-inbox.errors.unknownAction" },
);
