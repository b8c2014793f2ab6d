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
  /** Its catalogue key (admin namespace), written out so the catalogue test sees it in use. */
  label: `nav.${keyof AdminCatalogue["nav"]}`;
  icon: LucideIcon;
}

/** The admin sidebar (spec section 2): every admin route, in the spec's groups. */
export const ADMIN_NAV: {
  label: `groups.${keyof AdminCatalogue["groups"]}`;
  items: AdminNavItem[];
}[] = [
  {
    label: "groups.main",
    items: [
      { path: "/admin", label: "nav.dashboard", icon: LayoutDashboardIcon },
      {
        path: "/admin/notifications",
        label: "nav.notifications",
        icon: BellIcon,
      },
    ],
  },
  {
    label: "groups.clientManagement",
    items: [
      { path: "/admin/clients", label: "nav.clients", icon: UsersIcon },
      {
        path: "/admin/client-groups",
        label: "nav.clientGroups",
        icon: UsersIcon,
      },
      { path: "/admin/users", label: "nav.users", icon: ShieldIcon },
    ],
  },
  {
    label: "groups.ordersBilling",
    items: [
      { path: "/admin/orders", label: "nav.orders", icon: ShoppingCartIcon },
      { path: "/admin/top-ups", label: "nav.topUps", icon: CoinsIcon },
      { path: "/admin/invoices", label: "nav.invoices", icon: ReceiptIcon },
      { path: "/admin/quotes", label: "nav.quotes", icon: FileTextIcon },
      {
        path: "/admin/transactions",
        label: "nav.transactions",
        icon: WalletIcon,
      },
      { path: "/admin/gateways", label: "nav.gateways", icon: CreditCardIcon },
    ],
  },
  {
    label: "groups.productsServices",
    items: [
      { path: "/admin/products", label: "nav.products", icon: BoxIcon },
      { path: "/admin/promotions", label: "nav.promotions", icon: TagIcon },
      { path: "/admin/services", label: "nav.services", icon: ServerIcon },
    ],
  },
  {
    label: "groups.domains",
    items: [
      { path: "/admin/domains", label: "nav.domains", icon: GlobeIcon },
      {
        path: "/admin/domain-pricing",
        label: "nav.domainPricing",
        icon: ListIcon,
      },
    ],
  },
  {
    label: "groups.support",
    items: [
      { path: "/admin/tickets", label: "nav.tickets", icon: LifeBuoyIcon },
      {
        path: "/admin/knowledgebase",
        label: "nav.knowledgebase",
        icon: BookOpenIcon,
      },
      {
        path: "/admin/announcements",
        label: "nav.announcements",
        icon: MegaphoneIcon,
      },
      { path: "/admin/downloads", label: "nav.downloads", icon: DownloadIcon },
      { path: "/admin/chat", label: "nav.chat", icon: MessagesSquareIcon },
      {
        path: "/admin/contact-messages",
        label: "nav.contactMessages",
        icon: InboxIcon,
      },
    ],
  },
  {
    label: "groups.marketing",
    items: [
      {
        path: "/admin/affiliates",
        label: "nav.affiliates",
        icon: HandshakeIcon,
      },
      {
        path: "/admin/email-marketing",
        label: "nav.emailMarketing",
        icon: MailIcon,
      },
      {
        path: "/admin/newsletter",
        label: "nav.newsletter",
        icon: MailPlusIcon,
      },
    ],
  },
  {
    label: "groups.reports",
    items: [
      { path: "/admin/reports", label: "nav.reports", icon: BarChart3Icon },
      { path: "/admin/analytics", label: "nav.analytics", icon: LineChartIcon },
    ],
  },
  {
    label: "groups.system",
    items: [
      { path: "/admin/utilities", label: "nav.utilities", icon: WrenchIcon },
      { path: "/admin/logs", label: "nav.logs", icon: ScrollTextIcon },
      { path: "/admin/security", label: "nav.security", icon: GaugeIcon },
      {
        path: "/admin/automation",
        label: "nav.automation",
        icon: CalendarClockIcon,
      },
      { path: "/admin/mail", label: "nav.mail", icon: MailIcon },
      { path: "/admin/settings", label: "nav.settings", icon: SettingsIcon },
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
