import type { Announcement } from "~/domain/announcements/announcements";
import type { PaymentMethod } from "~/domain/payments/payment-methods";
import type { ProviderCode } from "~/domain/payments/providers/provider";
import type { ProviderSettingsRef } from "~/domain/payments/providers/provider-settings";
import type { SettingsForm } from "~/domain/settings/settings";
import type { Change, ReactionTable } from "./reaction.server";
import { auditSaved, type Saved } from "./saved.server";

/** What an announcement's audit entry keeps of its texts: the English title and the translations. */
type AnnouncementTexts = Pick<Announcement, "title" | "translations">;

/** An announcement an admin acted on, as it was. */
interface AnnouncementChanged {
  actorId: string;
  before: Announcement;
}

export type AdminEvent =
  /** An admin added a payment method (no `before`) or changed it in its form. */
  | ({ type: "paymentMethod.saved" } & Saved<PaymentMethod>)
  /** Switched on or off from the list (`after.enabled` says which). */
  | ({ type: "paymentMethod.switched" } & Required<Saved<PaymentMethod>>)
  /** A custom method deleted for good (`method` as it was). */
  | { type: "paymentMethod.deleted"; actorId: string; method: PaymentMethod }
  /**
   * An admin saved an online provider's connection (the first save with nothing before): never the
   * secret, only its last four characters.
   */
  | {
      type: "paymentProvider.saved";
      actorId: string;
      provider: ProviderCode;
      change: Change<ProviderSettingsRef | null>;
    }
  /** One form of the settings saved: the fields it changed, as they were and as they are. */
  | {
      type: "settings.saved";
      actorId: string;
      form: SettingsForm;
      change: Change<Record<string, unknown>>;
    }
  /** An admin wrote a new announcement: its texts. */
  | {
      type: "announcement.created";
      actorId: string;
      announcementId: number;
      texts: AnnouncementTexts;
    }
  /** Its texts and settings changed: `before` as it was, `texts` its new ones. */
  | ({ type: "announcement.updated"; texts: AnnouncementTexts } & AnnouncementChanged)
  /** Shown again, taken down, or deleted for good (`before` as it was). */
  | ({ type: "announcement.activated" } & AnnouncementChanged)
  | ({ type: "announcement.deactivated" } & AnnouncementChanged)
  | ({ type: "announcement.deleted" } & AnnouncementChanged)
  /**
   * A contact message deleted for good: when it came and whether it had been read, never who wrote it
   * or what (deleting is how personal data leaves).
   */
  | {
      type: "contactMessage.deleted";
      actorId: string;
      messageId: number;
      receivedAt: string;
      read: boolean;
    }
  /**
   * An address taken off the newsletter: when it subscribed, never the address (removing it is the
   * point).
   */
  | {
      type: "newsletterSubscriber.removed";
      actorId: string;
      subscriberId: number;
      subscribedAt: string;
    }
  /** An admin wrote, changed or cleared (null) their note on a customer's account. */
  | { type: "client.noteChanged"; actorId: string; userId: string; change: Change<string | null> }
  /**
   * A file of the old storefront imported (by a script: no actor), named by its content's hash, with
   * how many records of each kind it brought in, matched or skipped.
   */
  | {
      type: "legacy.imported";
      fileHash: string;
      fileName: string;
      counts: Record<string, Record<string, number>>;
    };

/** What the audit log keeps of a payment method: everything but its times. */
function methodView(method: PaymentMethod) {
  const { createdAt: _c, updatedAt: _u, ...fields } = method;
  return fields;
}

const savedMethod = auditSaved("payment_method", methodView);

/** An announcement's change other than its creation, in the audit log as `announcement.<intent>`. */
const announcementAudit =
  (intent: "update" | "activate" | "deactivate" | "delete") =>
  (event: AnnouncementChanged & { texts?: AnnouncementTexts }) => ({
    actorId: event.actorId,
    action: `announcement.${intent}`,
    targetType: "announcement" as const,
    targetId: event.before.id,
    before: event.before,
    ...(event.texts ? { after: event.texts } : {}),
  });

/**
 * What follows an admin's changes to the site's configuration (payment methods, settings,
 * announcements), to the inbox and to a customer's note, and a legacy import: their audit entries.
 */
export const adminReactions: ReactionTable<AdminEvent> = {
  "paymentMethod.saved": {
    audit: (event) =>
      savedMethod(event, event.before ? "payment_method.update" : "payment_method.create"),
  },
  "paymentMethod.switched": {
    audit: (event) =>
      savedMethod(event, event.after.enabled ? "payment_method.enable" : "payment_method.disable"),
  },
  "paymentMethod.deleted": {
    audit: ({ actorId, method }) => ({
      actorId,
      action: "payment_method.delete",
      targetType: "payment_method",
      targetId: method.id,
      before: methodView(method),
    }),
  },
  "paymentProvider.saved": {
    audit: ({ actorId, provider, change }) => ({
      actorId,
      action: "payment_provider.save",
      targetType: "settings",
      targetId: provider,
      ...change,
    }),
  },
  "settings.saved": {
    audit: ({ actorId, form, change }) => ({
      actorId,
      action: "settings.update",
      targetType: "settings",
      targetId: form,
      ...change,
    }),
  },
  "announcement.created": {
    audit: ({ actorId, announcementId, texts }) => ({
      actorId,
      action: "announcement.create",
      targetType: "announcement",
      targetId: announcementId,
      after: texts,
    }),
  },
  "announcement.updated": { audit: announcementAudit("update") },
  "announcement.activated": { audit: announcementAudit("activate") },
  "announcement.deactivated": { audit: announcementAudit("deactivate") },
  "announcement.deleted": { audit: announcementAudit("delete") },
  "contactMessage.deleted": {
    audit: ({ actorId, messageId, receivedAt, read }) => ({
      actorId,
      action: "contact_message.delete",
      targetType: "contact_message",
      targetId: messageId,
      before: { receivedAt, read },
    }),
  },
  "newsletterSubscriber.removed": {
    audit: ({ actorId, subscriberId, subscribedAt }) => ({
      actorId,
      action: "newsletter_subscriber.remove",
      targetType: "newsletter_subscriber",
      targetId: subscriberId,
      before: { subscribedAt },
    }),
  },
  "client.noteChanged": {
    audit: ({ actorId, userId, change }) => ({
      actorId,
      action: "user.note",
      targetType: "user",
      targetId: userId,
      before: { adminNote: change.before },
      after: { adminNote: change.after },
    }),
  },
  "legacy.imported": {
    audit: ({ fileHash, fileName, counts }) => ({
      actorId: null,
      action: "legacy.import",
      targetType: "legacy_import",
      targetId: fileHash,
      after: { file: fileName, counts },
      reason: `Imported ${fileName}`,
    }),
  },
};
