import { index, layout, prefix, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  layout("routes/site-layout.tsx", [
    index("routes/home.tsx"),
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
    ]),
  ]),
] satisfies RouteConfig;
