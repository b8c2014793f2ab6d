import type { Locale } from "./locales";
import enAdmin from "./locales/en/admin.json";
import enAdminSettings from "./locales/en/admin-settings.json";
import enAdminSecurity from "./locales/en/admin-security.json";
import enAdminInbox from "./locales/en/admin-inbox.json";
import enAdminReports from "./locales/en/admin-reports.json";
import enAdminCatalogue from "./locales/en/admin-catalogue.json";
import enAdminClients from "./locales/en/admin-clients.json";
import enMail from "./locales/en/mail.json";
import enAuth from "./locales/en/auth.json";
import enAnnouncements from "./locales/en/announcements.json";
import enCoins from "./locales/en/coins.json";
import enCommon from "./locales/en/common.json";
import enDashboard from "./locales/en/dashboard.json";
import enOrders from "./locales/en/orders.json";
import enPayments from "./locales/en/payments.json";
import enServices from "./locales/en/services.json";
import enSite from "./locales/en/site.json";
import enTickets from "./locales/en/tickets.json";
import enNotifications from "./locales/en/notifications.json";
import enInvoices from "./locales/en/invoices.json";
import enProvisioning from "./locales/en/provisioning.json";
import enAdminStaff from "./locales/en/admin-staff.json";
import enAdminTickets from "./locales/en/admin-tickets.json";
import enCampaigns from "./locales/en/campaigns.json";
import enDiscord from "./locales/en/discord.json";
import enKnowledgebase from "./locales/en/knowledgebase.json";
import enReferrals from "./locales/en/referrals.json";

export const namespaces = [
  "common",
  "auth",
  "orders",
  "services",
  "coins",
  "tickets",
  "notifications",
  "announcements",
  "dashboard",
  "site",
  "admin",
  "admin-settings",
  "admin-security",
  "admin-reports",
  "admin-inbox",
  "admin-catalogue",
  "admin-clients",
  "mail",
  "payments",
  "invoices",
  "provisioning",
  "admin-staff",
  "admin-tickets",
  "referrals",
  "knowledgebase",
  "campaigns",
  "discord",
] as const;
export type Namespace = (typeof namespaces)[number];

export const englishResources = {
  common: enCommon,
  auth: enAuth,
  orders: enOrders,
  services: enServices,
  coins: enCoins,
  tickets: enTickets,
  notifications: enNotifications,
  announcements: enAnnouncements,
  dashboard: enDashboard,
  site: enSite,
  admin: enAdmin,
  "admin-settings": enAdminSettings,
  "admin-security": enAdminSecurity,
  "admin-reports": enAdminReports,
  "admin-inbox": enAdminInbox,
  "admin-catalogue": enAdminCatalogue,
  "admin-clients": enAdminClients,
  mail: enMail,
  payments: enPayments,
  invoices: enInvoices,
  provisioning: enProvisioning,
  "admin-staff": enAdminStaff,
  "admin-tickets": enAdminTickets,
  referrals: enReferrals,
  knowledgebase: enKnowledgebase,
  campaigns: enCampaigns,
  discord: enDiscord,
};
export type Resources = typeof englishResources;

/**
 * One language's catalogues. English is bundled (it is the source and the fallback); French and Arabic
 * load on demand, one chunk per namespace, so a page ships only the language it shows. A namespace that is
 * missing in a language falls back to English rather than failing the page.
 */
export async function loadResources(locale: Locale): Promise<Resources> {
  if (locale === "en") return englishResources;
  const loaded = await Promise.all(
    namespaces.map(async (ns) => {
      try {
        const module = (await import(`./locales/${locale}/${ns}.json`)) as { default: unknown };
        return [ns, module.default] as const;
      } catch {
        return [ns, englishResources[ns]] as const;
      }
    }),
  );
  return Object.fromEntries(loaded) as unknown as Resources;
}
