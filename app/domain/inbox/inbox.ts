import { labelKeys } from "~/lib/label-keys";
import { idField } from "~/lib/id-field";
import { pageParam, searchParam } from "~/lib/query-params";
import { z } from "~/lib/zod";

// Contact messages and newsletter subscribers for admins (/admin/contact-messages, /admin/newsletter).
// Messages are catalogue keys ("admin-inbox.key").

export const CONTACT_PAGE_SIZE = 20;
export const SUBSCRIBERS_PAGE_SIZE = 50;

export const CONTACT_FILTERS = ["all", "unread"] as const;
export type ContactFilter = (typeof CONTACT_FILTERS)[number];
export const CONTACT_FILTER_LABELS = labelKeys("admin-inbox", "contact.filters", CONTACT_FILTERS);

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

/** A reply link: the sender's address, and the subject with "Re: " (the usual mail prefix). */
export function replyHref(email: string, subject: string): string {
  const to = encodeURIComponent(email).replaceAll("%40", "@");
  return `mailto:${to}?subject=${encodeURIComponent("Re: " + subject)}`;
}

export interface ContactMessageView {
  id: number;
  name: string;
  email: string;
  /** The active account with this address, when there is one: the sender's client page. */
  userId: string | null;
  subject: string;
  message: string;
  readAt: string | null;
  createdAt: string;
}

export interface SubscriberView {
  id: number;
  email: string;
  createdAt: string;
}
