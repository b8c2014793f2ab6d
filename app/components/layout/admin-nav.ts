import {
  BarChart3Icon,
  BellIcon,
  BookOpenIcon,
  BoxIcon,
  CreditCardIcon,
  DownloadIcon,
  FileTextIcon,
  GaugeIcon,
  GlobeIcon,
  HandshakeIcon,
  LayoutDashboardIcon,
  LifeBuoyIcon,
  LineChartIcon,
  ListIcon,
  MailIcon,
  MegaphoneIcon,
  MessagesSquareIcon,
  ReceiptIcon,
  ScrollTextIcon,
  ServerIcon,
  SettingsIcon,
  ShieldIcon,
  ShoppingCartIcon,
  TagIcon,
  UsersIcon,
  WalletIcon,
  WrenchIcon,
  type LucideIcon,
} from "lucide-react";

export interface AdminNavItem {
  path: string;
  key: string;
  icon: LucideIcon;
}

/** The admin sidebar (spec section 2): every admin route, in the spec's groups. */
export const ADMIN_NAV: { group: string; items: AdminNavItem[] }[] = [
  { group: "main", items: [{ path: "/admin", key: "dashboard", icon: LayoutDashboardIcon }] },
  {
    group: "clientManagement",
    items: [
      { path: "/admin/clients", key: "clients", icon: UsersIcon },
      { path: "/admin/client-groups", key: "clientGroups", icon: UsersIcon },
      { path: "/admin/users", key: "users", icon: ShieldIcon },
    ],
  },
  {
    group: "ordersBilling",
    items: [
      { path: "/admin/orders", key: "orders", icon: ShoppingCartIcon },
      { path: "/admin/invoices", key: "invoices", icon: ReceiptIcon },
      { path: "/admin/quotes", key: "quotes", icon: FileTextIcon },
      { path: "/admin/transactions", key: "transactions", icon: WalletIcon },
      { path: "/admin/gateways", key: "gateways", icon: CreditCardIcon },
    ],
  },
  {
    group: "productsServices",
    items: [
      { path: "/admin/products", key: "products", icon: BoxIcon },
      { path: "/admin/promotions", key: "promotions", icon: TagIcon },
      { path: "/admin/services", key: "services", icon: ServerIcon },
    ],
  },
  {
    group: "domains",
    items: [
      { path: "/admin/domains", key: "domains", icon: GlobeIcon },
      { path: "/admin/domain-pricing", key: "domainPricing", icon: ListIcon },
    ],
  },
  {
    group: "support",
    items: [
      { path: "/admin/tickets", key: "tickets", icon: LifeBuoyIcon },
      { path: "/admin/knowledgebase", key: "knowledgebase", icon: BookOpenIcon },
      { path: "/admin/announcements", key: "announcements", icon: MegaphoneIcon },
      { path: "/admin/downloads", key: "downloads", icon: DownloadIcon },
      { path: "/admin/chat", key: "chat", icon: MessagesSquareIcon },
    ],
  },
  {
    group: "marketing",
    items: [
      { path: "/admin/affiliates", key: "affiliates", icon: HandshakeIcon },
      { path: "/admin/email-marketing", key: "emailMarketing", icon: MailIcon },
    ],
  },
  {
    group: "reports",
    items: [
      { path: "/admin/reports", key: "reports", icon: BarChart3Icon },
      { path: "/admin/analytics", key: "analytics", icon: LineChartIcon },
    ],
  },
  {
    group: "system",
    items: [
      { path: "/admin/utilities", key: "utilities", icon: WrenchIcon },
      { path: "/admin/logs", key: "logs", icon: ScrollTextIcon },
      { path: "/admin/security", key: "security", icon: GaugeIcon },
      { path: "/admin/settings", key: "settings", icon: SettingsIcon },
    ],
  },
];

export const ADMIN_NOTIFICATIONS_ICON = BellIcon;

export function navKeyForPath(pathname: string): string | undefined {
  const clean = pathname.replace(/\/+$/, "") || "/admin";
  for (const group of ADMIN_NAV) {
    for (const item of group.items) {
      if (clean === item.path || (item.path !== "/admin" && clean.startsWith(`${item.path}/`)))
        return item.key;
    }
  }
  return undefined;
}
