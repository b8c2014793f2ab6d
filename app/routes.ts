import { index, layout, prefix, route, type RouteConfig } from "@react-router/dev/routes";
import { COMING_SOON_PATHS } from "./components/layout/admin-pages";

export default [
  layout("routes/site-layout.tsx", [
    index("routes/home.tsx"),
    route("services/:type", "routes/site/services.tsx"),
    route("game-hosting", "routes/site/services.tsx", { id: "game-hosting" }),
    route("about", "routes/site/about.tsx"),
    route("contact", "routes/site/contact.tsx"),
    route("service-terms", "routes/site/service-terms.tsx"),
    route("privacy", "routes/site/privacy.tsx"),
    route("orange-money", "routes/site/orange-money.tsx"),
    // The knowledge base (docs/knowledgebase.md): its index and search, a category, an article.
    route("knowledgebase", "routes/site/knowledgebase.tsx"),
    route("knowledgebase/:category", "routes/site/knowledgebase-category.tsx"),
    route("knowledgebase/:category/:article", "routes/site/knowledgebase-article.tsx"),
    route("phpmyadmin", "routes/site/phpmyadmin.tsx"),
    route("bot-detected", "routes/site/bot-detected.tsx"),
    route("verification-failed", "routes/site/verification-failed.tsx"),
    route("login", "routes/login.tsx"),
    route("register", "routes/register.tsx"),
    route("forgot-password", "routes/forgot-password.tsx"),
    route("reset-password", "routes/reset-password.tsx"),
    route("verify-email", "routes/verify-email.tsx"),
    // The newsletter's confirmation link and the campaigns' unsubscribe page (docs/mail.md#campaigns).
    route("newsletter/confirm", "routes/site/newsletter-confirm.tsx"),
    route("unsubscribe", "routes/site/unsubscribe.tsx"),
    route("account/password", "routes/account-password.tsx"),
    // The dashboard: one shell (the cards and the tabs' links), each tab a route of its own.
    layout("routes/dashboard/layout.tsx", [
      route("dashboard", "routes/dashboard/overview.tsx"),
      route("dashboard/services", "routes/dashboard/services.tsx"),
      // A server of the customer's (docs/server-control.md), under the services tab.
      route("dashboard/services/:id", "routes/dashboard/server.tsx"),
      // A service's change of plan (docs/self-service.md), under the services tab.
      route("dashboard/services/:id/plan", "routes/dashboard/service-plan.tsx"),
      // Cancelling one, at the end of its term or with a refund (docs/self-service.md).
      route("dashboard/services/:id/cancel", "routes/dashboard/service-cancel.tsx"),
      route("dashboard/domains", "routes/dashboard/domains.tsx"),
      route("dashboard/billing", "routes/dashboard/billing.tsx"),
      route("dashboard/support", "routes/dashboard/support.tsx"),
      route("dashboard/account", "routes/dashboard/account.tsx"),
      route("dashboard/referrals", "routes/dashboard/referrals.tsx"),
    ]),
    route("dashboard/top-up", "routes/top-up.tsx"),
    // Where a payment provider sends the customer back (docs/online-payments.md).
    route("dashboard/top-up/payments/:id", "routes/top-up-payment.tsx"),
    route("coins", "routes/coins.tsx"),
    route("order", "routes/order.tsx"),
    route("support/new", "routes/support/new.tsx"),
    route("support/:id", "routes/support/ticket.tsx"),
    route("invoices/:number", "routes/invoice.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
  route("maintenance", "routes/maintenance.tsx"),
  route("logout", "routes/logout.tsx"),
  // Signing in with Discord (docs/discord.md): the buttons' post, and Discord's way back.
  route("auth/discord", "routes/auth-discord.ts"),
  route("auth/discord/callback", "routes/auth-discord-callback.ts"),
  // Leaving the view of the site as a customer (ADR 57): the banner's button.
  route("view-as/leave", "routes/view-as-leave.ts"),
  route("notifications", "routes/notifications.tsx"),
  route("order/voucher", "routes/order-voucher.ts"),
  // The new-ticket page's suggested articles, as JSON while the customer types (docs/knowledgebase.md).
  route("support/new/articles", "routes/support/article-suggestions.ts"),
  // A file, not a page: outside the site's layout (whose loader a download does not need).
  route("invoices/:number/pdf", "routes/invoice-pdf.ts"),
  // A proof file of a top-up request: the bytes, not a page (outside the site's layout).
  route("dashboard/top-up/proofs/:id", "routes/top-up-proof.ts"),
  // Its preview, a small WebP (the admins' queue shows it), to the same people.
  route("dashboard/top-up/proofs/:id/thumbnail", "routes/top-up-proof-thumbnail.ts"),
  // A customer's archive of their data: a download, not a page (outside the site's layout).
  route("dashboard/account/export/:token", "routes/dashboard/data-export.ts"),
  // A file sent with a ticket's message, to the ticket's customer and the staff (outside the layout).
  route("support/:id/files/:fileId", "routes/support/ticket-file.ts"),
  // A server's state as JSON, asked for while its page is open: outside the site's layout.
  route("dashboard/services/:id/status", "routes/dashboard/server-status.ts"),
  // A payment provider's notifications: JSON, from its servers (docs/online-payments.md).
  route("hooks/payments/:provider", "routes/hooks/payments.ts"),
  route("newsletter", "routes/site/newsletter.tsx"),
  route("language", "routes/language.tsx"),
  route("my-services", "routes/redirects/my-services.ts"),
  route("terms", "routes/redirects/terms.ts"),
  ...prefix("admin", [
    // Files, not pages: outside the shell's layout (whose loader a download does not need).
    route("reports.csv", "routes/admin/reports-csv.ts"),
    route("newsletter.csv", "routes/admin/newsletter-csv.ts"),
    // A server's state as JSON for its admin page, as the customer's page asks for it.
    route("services/:id/panel/status", "routes/admin/service-panel-status.ts"),
    // The client page's "View as this customer": a post, then the customer's dashboard (ADR 57).
    route("clients/:id/view-as", "routes/admin/client-view-as.ts"),
    layout("routes/admin/layout.tsx", [
      index("routes/admin/dashboard.tsx"),
      route("orders", "routes/admin/orders.tsx"),
      route("services", "routes/admin/services.tsx"),
      route("services/:id/panel", "routes/admin/service-panel.tsx"),
      route("clients", "routes/admin/clients.tsx"),
      route("clients/:id", "routes/admin/client.tsx"),
      route("tickets", "routes/admin/tickets.tsx"),
      route("tickets/replies", "routes/admin/canned-replies.tsx"),
      route("tickets/:id", "routes/admin/ticket.tsx"),
      route("announcements", "routes/admin/announcements.tsx"),
      route("knowledgebase", "routes/admin/knowledgebase.tsx"),
      route("users", "routes/admin/clients.tsx", { id: "admin-users" }),
      route("logs", "routes/admin/logs.tsx"),
      route("transactions", "routes/admin/transactions.tsx"),
      route("invoices", "routes/admin/invoices.tsx"),
      route("settings", "routes/admin/settings.tsx"),
      route("settings/game-panel", "routes/admin/game-panel.tsx"),
      route("settings/discord", "routes/admin/discord.tsx"),
      route("security", "routes/admin/security.tsx"),
      route("staff", "routes/admin/staff.tsx"),
      route("account", "routes/admin/account.tsx"),
      route("automation", "routes/admin/automation.tsx"),
      route("mail", "routes/admin/mail.tsx"),
      route("reports", "routes/admin/reports.tsx"),
      route("contact-messages", "routes/admin/contact-messages.tsx"),
      route("newsletter", "routes/admin/newsletter.tsx"),
      route("email-marketing", "routes/admin/email-marketing.tsx"),
      route("email-marketing/:id", "routes/admin/email-campaign.tsx"),
      route("products", "routes/admin/products.tsx"),
      route("promotions", "routes/admin/promotions.tsx"),
      route("gateways", "routes/admin/gateways.tsx"),
      route("top-ups", "routes/admin/top-ups.tsx"),
      route("refunds", "routes/admin/refunds.tsx"),
      route("search", "routes/admin/search.tsx"),
      route("notifications", "routes/admin/notifications.tsx"),
      route("affiliates", "routes/admin/affiliates.tsx"),
      ...COMING_SOON_PATHS.map((path) =>
        route(path, "routes/admin/coming-soon.tsx", { id: `admin-${path}` }),
      ),
    ]),
  ]),
] satisfies RouteConfig;
