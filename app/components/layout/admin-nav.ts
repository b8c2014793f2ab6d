import {
  BarChart3Icon,
  BellIcon,
  BookOpenIcon,
  BoxIcon,
  CalendarClockIcon,
  CoinsIcon,
  CreditCardIcon,
  DownloadIcon,
  FileTextIcon,
  GaugeIcon,
  GlobeIcon,
  HandshakeIcon,
  InboxIcon,
  LayoutDashboardIcon,
  LifeBuoyIcon,
  LineChartIcon,
  ListIcon,
  MailIcon,
  MailPlusIcon,
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
import type { Resources } from "~/i18n/resources";

type AdminCatalogue = Resources["admin"];

export interface AdminNavItem {
  path: string;
  key: string;
  /** Its catalogue key (admin namespace), written out so the catalogue test sees it in use. */
  label: `nav.${keyof AdminCatalogue["nav"]}`;
  icon: LucideIcon;
}

/** The admin sidebar (spec section 2): every admin route, in the spec's groups. */
export const ADMIN_NAV: {
  group: string;
  label: `groups.${keyof AdminCatalogue["groups"]}`;
  items: AdminNavItem[];
}[] = [
  {
    group: "main",
    label: "groups.main",
    items: [
      { path: "/admin", key: "dashboard", label: "nav.dashboard", icon: LayoutDashboardIcon },
      {
        path: "/admin/notifications",
        key: "notifications",
        label: "nav.notifications",
        icon: BellIcon,
      },
    ],
  },
  {
    group: "clientManagement",
    label: "groups.clientManagement",
    items: [
      { path: "/admin/clients", key: "clients", label: "nav.clients", icon: UsersIcon },
      {
        path: "/admin/client-groups",
        key: "clientGroups",
        label: "nav.clientGroups",
        icon: UsersIcon,
      },
      { path: "/admin/users", key: "users", label: "nav.users", icon: ShieldIcon },
    ],
  },
  {
    group: "ordersBilling",
    label: "groups.ordersBilling",
    items: [
      { path: "/admin/orders", key: "orders", label: "nav.orders", icon: ShoppingCartIcon },
      { path: "/admin/top-ups", key: "topUps", label: "nav.topUps", icon: CoinsIcon },
      { path: "/admin/invoices", key: "invoices", label: "nav.invoices", icon: ReceiptIcon },
      { path: "/admin/quotes", key: "quotes", label: "nav.quotes", icon: FileTextIcon },
      {
        path: "/admin/transactions",
        key: "transactions",
        label: "nav.transactions",
        icon: WalletIcon,
      },
      { path: "/admin/gateways", key: "gateways", label: "nav.gateways", icon: CreditCardIcon },
    ],
  },
  {
    group: "productsServices",
    label: "groups.productsServices",
    items: [
      { path: "/admin/products", key: "products", label: "nav.products", icon: BoxIcon },
      { path: "/admin/promotions", key: "promotions", label: "nav.promotions", icon: TagIcon },
      { path: "/admin/services", key: "services", label: "nav.services", icon: ServerIcon },
    ],
  },
  {
    group: "domains",
    label: "groups.domains",
    items: [
      { path: "/admin/domains", key: "domains", label: "nav.domains", icon: GlobeIcon },
      {
        path: "/admin/domain-pricing",
        key: "domainPricing",
        label: "nav.domainPricing",
        icon: ListIcon,
      },
    ],
  },
  {
    group: "support",
    label: "groups.support",
    items: [
      { path: "/admin/tickets", key: "tickets", label: "nav.tickets", icon: LifeBuoyIcon },
      {
        path: "/admin/knowledgebase",
        key: "knowledgebase",
        label: "nav.knowledgebase",
        icon: BookOpenIcon,
      },
      {
        path: "/admin/announcements",
        key: "announcements",
        label: "nav.announcements",
        icon: MegaphoneIcon,
      },
      { path: "/admin/downloads", key: "downloads", label: "nav.downloads", icon: DownloadIcon },
      { path: "/admin/chat", key: "chat", label: "nav.chat", icon: MessagesSquareIcon },
      {
        path: "/admin/contact-messages",
        key: "contactMessages",
        label: "nav.contactMessages",
        icon: InboxIcon,
      },
    ],
  },
  {
    group: "marketing",
    label: "groups.marketing",
    items: [
      {
        path: "/admin/affiliates",
        key: "affiliates",
        label: "nav.affiliates",
        icon: HandshakeIcon,
      },
      {
        path: "/admin/email-marketing",
        key: "emailMarketing",
        label: "nav.emailMarketing",
        icon: MailIcon,
      },
      {
        path: "/admin/newsletter",
        key: "newsletter",
        label: "nav.newsletter",
        icon: MailPlusIcon,
      },
    ],
  },
  {
    group: "reports",
    label: "groups.reports",
    items: [
      { path: "/admin/reports", key: "reports", label: "nav.reports", icon: BarChart3Icon },
      { path: "/admin/analytics", key: "analytics", label: "nav.analytics", icon: LineChartIcon },
    ],
  },
  {
    group: "system",
    label: "groups.system",
    items: [
      { path: "/admin/utilities", key: "utilities", label: "nav.utilities", icon: WrenchIcon },
      { path: "/admin/logs", key: "logs", label: "nav.logs", icon: ScrollTextIcon },
      { path: "/admin/security", key: "security", label: "nav.security", icon: GaugeIcon },
      {
        path: "/admin/automation",
        key: "automation",
        label: "nav.automation",
        icon: CalendarClockIcon,
      },
      { path: "/admin/mail", key: "mail", label: "nav.mail", icon: MailIcon },
      { path: "/admin/settings", key: "settings", label: "nav.settings", icon: SettingsIcon },
    ],
  },
];

export const ADMIN_NOTIFICATIONS_ICON = BellIcon;

export function navItemForPath(pathname: string): AdminNavItem | undefined {
  const clean = pathname.replace(/\/+$/, "") || "/admin";
  for (const group of ADMIN_NAV) {
    for (const item of group.items) {
      if (clean === item.path || (item.path !== "/admin" && clean.startsWith(`${item.path}/`)))
        return item;
    }
  }
  return undefined;
}

export function navKeyForPath(pathname: string): string | undefined {
  return navItemForPath(pathname)?.key;
}
