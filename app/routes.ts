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
    route("orange-money", "routes/site/orange-money.tsx"),
    route("phpmyadmin", "routes/site/phpmyadmin.tsx"),
    route("bot-detected", "routes/site/bot-detected.tsx"),
    route("verification-failed", "routes/site/verification-failed.tsx"),
    route("login", "routes/login.tsx"),
    route("register", "routes/register.tsx"),
    route("forgot-password", "routes/forgot-password.tsx"),
    route("account/password", "routes/account-password.tsx"),
    route("dashboard", "routes/dashboard.tsx"),
    route("order", "routes/order.tsx"),
    route("support/new", "routes/support/new.tsx"),
    route("support/:id", "routes/support/ticket.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
  route("logout", "routes/logout.tsx"),
  route("notifications", "routes/notifications.tsx"),
  route("newsletter", "routes/site/newsletter.tsx"),
  route("language", "routes/language.tsx"),
  route("my-services", "routes/redirects/my-services.ts"),
  route("terms", "routes/redirects/terms.ts"),
  route("privacy", "routes/redirects/privacy.ts"),
  ...prefix("admin", [
    layout("routes/admin/layout.tsx", [
      index("routes/admin/dashboard.tsx"),
      route("orders", "routes/admin/orders.tsx"),
      route("services", "routes/admin/services.tsx"),
      route("clients", "routes/admin/clients.tsx"),
      route("tickets", "routes/admin/tickets.tsx"),
      route("tickets/:id", "routes/admin/ticket.tsx"),
      route("announcements", "routes/admin/announcements.tsx"),
      route("users", "routes/admin/clients.tsx", { id: "admin-users" }),
      route("search", "routes/admin/search.tsx"),
      ...COMING_SOON_PATHS.map((path) =>
        route(path, "routes/admin/coming-soon.tsx", { id: `admin-${path}` }),
      ),
    ]),
  ]),
] satisfies RouteConfig;
