import { keysOf } from "~/lib/keys-of";

export type { AuditLogQuery } from "./audit-log.schemas";

export const AUDIT_PAGE_SIZE = 50;

// Catalogue keys (admin namespace) written out, so the catalogue test sees every one in use.
export const AUDIT_TARGET_LABELS = {
  user: "audit.targets.user",
  order: "audit.targets.order",
  hosting_service: "audit.targets.hosting_service",
  voucher: "audit.targets.voucher",
  product: "audit.targets.product",
  settings: "audit.targets.settings",
  ticket: "audit.targets.ticket",
  announcement: "audit.targets.announcement",
  login_block: "admin-security:audit.targets.loginBlock",
  // Labels from the inbox's own namespace ("ns:key" reaches it from the admin namespace's t).
  contact_message: "admin-inbox:audit.targets.contactMessage",
  newsletter_subscriber: "admin-inbox:audit.targets.newsletterSubscriber",
  legacy_import: "audit.targets.legacy_import",
  // The background worker.
  job: "audit.targets.job",
  job_schedule: "audit.targets.job_schedule",
  // Payment methods, on /admin/gateways.
  payment_method: "payments:audit.targets.paymentMethod",
  top_up_request: "payments:audit.targets.topUpRequest",
  // Invoices and receipts, labelled in their own namespace.
  invoice: "invoices:audit.targets.invoice",
  // The staff's canned replies, labelled in the admin tickets' namespace.
  canned_reply: "admin-tickets:audit.targets.cannedReply",
  // A referral on /admin/affiliates, labelled in the referrals' namespace.
  referral: "referrals:audit.targets.referral",
  // The knowledge base's categories and articles, labelled in its own namespace.
  kb_category: "knowledgebase:audit.targets.category",
  kb_article: "knowledgebase:audit.targets.article",
  // Mail campaigns, labelled in their own namespace.
  mail_campaign: "campaigns:audit.targets.campaign",
} as const;
export type AuditTargetType = keyof typeof AUDIT_TARGET_LABELS;
export const AUDIT_TARGET_TYPES = keysOf(AUDIT_TARGET_LABELS);

/** The actions written today, in words; an action without an entry here is shown as its code. */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  "coins.adjust": "audit.actions.coinsAdjust",
  "order.approve": "audit.actions.orderApprove",
  "order.reject": "audit.actions.orderReject",
  "service.add": "audit.actions.serviceAdd",
  "service.suspend": "audit.actions.serviceSuspend",
  "service.reactivate": "audit.actions.serviceReactivate",
  "service.terminate": "audit.actions.serviceTerminate",
  "service.delete": "audit.actions.serviceDelete",
  "service.edit": "audit.actions.serviceEdit",
  // The game panel, on a service's panel page and in Settings.
  "service.panel_reinstall": "audit.actions.servicePanelReinstall",
  "service.panel_relink": "audit.actions.servicePanelRelink",
  "service.panel_retry": "audit.actions.servicePanelRetry",
  "panel.connection.save": "audit.actions.panelConnectionSave",
  // What a customer or an admin asked of a server (its page), labelled in the services namespace.
  "service.server_power": "services:server.audit.power",
  "service.server_reinstall": "services:server.audit.reinstall",
  "service.server_variable": "services:server.audit.variable",
  "service.server_password": "services:server.audit.password",
  // The online payment providers, on /admin/gateways.
  "payment_provider.save": "audit.actions.paymentProviderSave",
  // The service lifecycle, by the system.
  "service.auto_renew": "audit.actions.serviceAutoRenew",
  "order.expire": "audit.actions.orderExpire",
  "invoice.refund": "invoices:audit.refund",
  "service.renewal_refund": "invoices:audit.renewalRefund",
  // A customer's cancellation and its refund's decision, labelled in the services namespace.
  "service.cancel_scheduled": "services:cancel.audit.scheduled",
  "service.cancel_withdrawn": "services:cancel.audit.withdrawn",
  "service.refund_requested": "services:cancel.audit.refundRequested",
  "service.refund_approved": "services:cancel.audit.refundApproved",
  "service.refund_refused": "services:cancel.audit.refundRefused",
  "service.ended_at_term": "services:cancel.audit.endedAtTerm",
  // A customer's change of plan, up or down.
  "service.plan_change": "services:planChange.audit.changed",
  // The background worker, on /admin/automation.
  "automation.run_now": "audit.actions.automationRunNow",
  "automation.job_retry": "audit.actions.automationJobRetry",
  "automation.job_discard": "audit.actions.automationJobDiscard",
  "automation.webhook_disabled": "audit.actions.automationWebhookDisabled",
  "user.update": "audit.actions.userUpdate",
  "user.delete": "audit.actions.userDelete",
  "user.note": "admin-clients:auditActions.noteEdit",
  "user.two_factor_reset": "admin-clients:auditActions.twoFactorReset",
  // /admin/staff keeps its labels in its own namespace.
  "staff.add": "admin-staff:members.audit.add",
  "staff.role_change": "admin-staff:members.audit.roleChange",
  "staff.remove": "admin-staff:members.audit.remove",
  // A member of the staff viewing the site as the customer, labelled in the staff namespace.
  "viewAs.start": "admin-staff:viewAs.audit.start",
  "viewAs.end": "admin-staff:viewAs.audit.end",
  "account.email_change": "audit.actions.accountEmailChange",
  "account.password_reset": "audit.actions.accountPasswordReset",
  "account.two_factor_enable": "audit.actions.accountTwoFactorEnable",
  "account.two_factor_disable": "audit.actions.accountTwoFactorDisable",
  "account.two_factor_backup_codes": "audit.actions.accountTwoFactorBackupCodes",
  "account.email_change_requested": "audit.actions.accountEmailChangeRequested",
  "account.deletion_request": "audit.actions.accountDeletionRequest",
  "account.deletion_cancel": "audit.actions.accountDeletionCancel",
  "account.deletion_complete": "audit.actions.accountDeletionComplete",
  "account.data_export": "audit.actions.accountDataExport",
  "announcement.create": "audit.actions.announcementCreate",
  "announcement.update": "audit.actions.announcementUpdate",
  "announcement.activate": "audit.actions.announcementActivate",
  "announcement.deactivate": "audit.actions.announcementDeactivate",
  "announcement.delete": "audit.actions.announcementDelete",
  "ticket.status": "audit.actions.ticketStatus",
  "ticket.priority": "audit.actions.ticketPriority",
  "settings.update": "audit.actions.settingsUpdate",
  "session.revoke": "admin-security:audit.actions.sessionRevoke",
  "session.revoke_others": "admin-security:audit.actions.sessionRevokeOthers",
  "login_block.lift": "admin-security:audit.actions.loginBlockLift",
  "contact_message.delete": "admin-inbox:audit.contactMessageDelete",
  "newsletter_subscriber.remove": "admin-inbox:audit.newsletterSubscriberRemove",
  "legacy.import": "audit.actions.legacyImport",
  // /admin/products and /admin/promotions keep their labels in their own namespace.
  "product.create": "admin-catalogue:audit.productCreate",
  "product.update": "admin-catalogue:audit.productUpdate",
  "product.move": "admin-catalogue:audit.productMove",
  "product.hide": "admin-catalogue:audit.productHide",
  "product.show": "admin-catalogue:audit.productShow",
  "product.delete": "admin-catalogue:audit.productDelete",
  "voucher.create": "admin-catalogue:audit.voucherCreate",
  "voucher.update": "admin-catalogue:audit.voucherUpdate",
  "voucher.activate": "admin-catalogue:audit.voucherActivate",
  "voucher.deactivate": "admin-catalogue:audit.voucherDeactivate",
  // /admin/gateways keeps its labels in the payments namespace.
  "payment_method.create": "payments:audit.actions.create",
  "payment_method.update": "payments:audit.actions.update",
  "payment_method.enable": "payments:audit.actions.enable",
  "payment_method.disable": "payments:audit.actions.disable",
  "payment_method.delete": "payments:audit.actions.delete",
  "top_up.approve": "payments:audit.actions.topUpApprove",
  "top_up.reject": "payments:audit.actions.topUpReject",
  "top_up.refund": "payments:audit.actions.topUpRefund",
  // /admin/tickets/replies keeps its labels in the admin tickets' namespace.
  "canned_reply.create": "admin-tickets:audit.actions.cannedReplyCreate",
  "canned_reply.update": "admin-tickets:audit.actions.cannedReplyUpdate",
  "canned_reply.move": "admin-tickets:audit.actions.cannedReplyMove",
  "canned_reply.delete": "admin-tickets:audit.actions.cannedReplyDelete",
  // /admin/affiliates: a flagged referral let through or rejected, the referral settings.
  "referral.clear": "referrals:audit.actions.clear",
  "referral.reject": "referrals:audit.actions.reject",
  "referral.settings": "referrals:audit.actions.settings",
  // /admin/knowledgebase keeps its labels in the knowledge base's namespace.
  "kb_category.create": "knowledgebase:audit.actions.categoryCreate",
  "kb_category.update": "knowledgebase:audit.actions.categoryUpdate",
  "kb_category.delete": "knowledgebase:audit.actions.categoryDelete",
  "kb_article.create": "knowledgebase:audit.actions.articleCreate",
  "kb_article.update": "knowledgebase:audit.actions.articleUpdate",
  "kb_article.delete": "knowledgebase:audit.actions.articleDelete",
  // /admin/email-marketing keeps its labels in the campaigns namespace.
  "campaign.create": "campaigns:audit.actions.create",
  "campaign.update": "campaigns:audit.actions.update",
  "campaign.test": "campaigns:audit.actions.test",
  "campaign.send": "campaigns:audit.actions.send",
  // Discord (docs/discord.md) keeps its labels in its own namespace.
  "account.discord_link": "discord:audit.link",
  "account.discord_unlink": "discord:audit.unlink",
  "account.discord_register": "discord:audit.register",
  "discord.settings_save": "discord:audit.settingsSave",
};

export function auditTargetLabel(type: string): string | undefined {
  return (AUDIT_TARGET_LABELS as Record<string, string>)[type];
}

/** One entry of the audit log as the admin pages show it. */
export interface AuditLogRow {
  id: number;
  at: string;
  actorEmail: string | null;
  actorName: string | null;
  action: string;
  targetType: string;
  targetId: string;
  /** For a user target: their current name and email (a deleted user's are anonymised). */
  targetName: string | null;
  targetEmail: string | null;
  before: string | null;
  after: string | null;
  reason: string;
}
