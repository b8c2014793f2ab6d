import { labelKeys } from "~/lib/label-keys";

export type { ContactActionInput, ContactListQuery, SubscriberListQuery } from "./inbox.schemas";

// Contact messages and newsletter subscribers for admins (/admin/contact-messages, /admin/newsletter).
// Messages are catalogue keys ("admin-inbox.key").

export const CONTACT_PAGE_SIZE = 20;
export const SUBSCRIBERS_PAGE_SIZE = 50;

export const CONTACT_FILTERS = ["all", "unread"] as const;
export type ContactFilter = (typeof CONTACT_FILTERS)[number];
export const CONTACT_FILTER_LABELS = labelKeys("admin-inbox", "contact.filters", CONTACT_FILTERS);

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
  /** When its confirmation link was opened; null while it waits (it gets no campaign). */
  confirmedAt: string | null;
}
