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
  MessageSquareTextIcon,
  MessagesSquareIcon,
  ReceiptIcon,
  ScrollTextIcon,
  ServerIcon,
  SettingsIcon,
  ShieldIcon,
  ShoppingCartIcon,
  TagIcon,
  Undo2Icon,
  UserCogIcon,
  UsersIcon,
  WalletIcon,
  WrenchIcon,
  type LucideIcon,
} from "lucide-react";
import type { Resources } from "~/i18n/resources";
import { can, type Permission, type StaffRole } from "~/domain/staff/permissions";

type AdminCatalogue = Resources["admin"];

export interface AdminNavItem {
  path: string;
  /** Its catalogue key (admin namespace), written out so the catalogue test sees it in use. */
  label: `nav.${keyof AdminCatalogue["nav"]}`;
  icon: LucideIcon;
  /**
   * What the member's role must hold for the page (null: every member). The menu shows only what the
   * role may use; the page's own guard names the same permission.
   */
  permission: Permission | null;
}

/** The admin sidebar (spec section 2): every admin route, in the spec's groups. */
export const ADMIN_NAV: {
  label: `groups.${keyof AdminCatalogue["groups"]}`;
  items: AdminNavItem[];
}[] = [
  {
    label: "groups.main",
    items: [
      { path: "/admin", label: "nav.dashboard", icon: LayoutDashboardIcon, permission: null },
      {
        path: "/admin/notifications",
        label: "nav.notifications",
        icon: BellIcon,
        permission: null,
      },
    ],
  },
  {
    label: "groups.clientManagement",
    items: [
      { path: "/admin/clients", label: "nav.clients", icon: UsersIcon, permission: "clients.view" },
      {
        path: "/admin/client-groups",
        label: "nav.clientGroups",
        icon: UsersIcon,
        permission: "clients.view",
      },
      { path: "/admin/users", label: "nav.users", icon: ShieldIcon, permission: "clients.view" },
    ],
  },
  {
    label: "groups.ordersBilling",
    items: [
      {
        path: "/admin/orders",
        label: "nav.orders",
        icon: ShoppingCartIcon,
        permission: "orders.view",
      },
      { path: "/admin/top-ups", label: "nav.topUps", icon: CoinsIcon, permission: "topups.decide" },
      {
        path: "/admin/refunds",
        label: "nav.refunds",
        icon: Undo2Icon,
        permission: "invoices.refund",
      },
      {
        path: "/admin/invoices",
        label: "nav.invoices",
        icon: ReceiptIcon,
        permission: "invoices.view",
      },
      {
        path: "/admin/quotes",
        label: "nav.quotes",
        icon: FileTextIcon,
        permission: "invoices.view",
      },
      {
        path: "/admin/transactions",
        label: "nav.transactions",
        icon: WalletIcon,
        permission: "invoices.view",
      },
      {
        path: "/admin/gateways",
        label: "nav.gateways",
        icon: CreditCardIcon,
        permission: "gateways.manage",
      },
    ],
  },
  {
    label: "groups.productsServices",
    items: [
      {
        path: "/admin/products",
        label: "nav.products",
        icon: BoxIcon,
        permission: "products.manage",
      },
      {
        path: "/admin/promotions",
        label: "nav.promotions",
        icon: TagIcon,
        permission: "products.manage",
      },
      {
        path: "/admin/services",
        label: "nav.services",
        icon: ServerIcon,
        permission: "services.view",
      },
    ],
  },
  {
    label: "groups.domains",
    items: [
      {
        path: "/admin/domains",
        label: "nav.domains",
        icon: GlobeIcon,
        permission: "products.manage",
      },
      {
        path: "/admin/domain-pricing",
        label: "nav.domainPricing",
        icon: ListIcon,
        permission: "products.manage",
      },
    ],
  },
  {
    label: "groups.support",
    items: [
      {
        path: "/admin/tickets",
        label: "nav.tickets",
        icon: LifeBuoyIcon,
        permission: "tickets.reply",
      },
      {
        path: "/admin/tickets/replies",
        label: "nav.cannedReplies",
        icon: MessageSquareTextIcon,
        permission: "tickets.reply",
      },
      {
        path: "/admin/knowledgebase",
        label: "nav.knowledgebase",
        icon: BookOpenIcon,
        permission: "knowledgebase.manage",
      },
      {
        path: "/admin/announcements",
        label: "nav.announcements",
        icon: MegaphoneIcon,
        permission: "announcements.manage",
      },
      {
        path: "/admin/downloads",
        label: "nav.downloads",
        icon: DownloadIcon,
        permission: "products.manage",
      },
      {
        path: "/admin/chat",
        label: "nav.chat",
        icon: MessagesSquareIcon,
        permission: "tickets.reply",
      },
      {
        path: "/admin/contact-messages",
        label: "nav.contactMessages",
        icon: InboxIcon,
        permission: "inbox.manage",
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
        permission: "affiliates.manage",
      },
      {
        path: "/admin/email-marketing",
        label: "nav.emailMarketing",
        icon: MailIcon,
        permission: "campaigns.manage",
      },
      {
        path: "/admin/newsletter",
        label: "nav.newsletter",
        icon: MailPlusIcon,
        permission: "inbox.manage",
      },
    ],
  },
  {
    label: "groups.reports",
    items: [
      {
        path: "/admin/reports",
        label: "nav.reports",
        icon: BarChart3Icon,
        permission: "reports.view",
      },
      {
        path: "/admin/analytics",
        label: "nav.analytics",
        icon: LineChartIcon,
        permission: "reports.view",
      },
    ],
  },
  {
    label: "groups.system",
    items: [
      {
        path: "/admin/utilities",
        label: "nav.utilities",
        icon: WrenchIcon,
        permission: "settings.manage",
      },
      { path: "/admin/logs", label: "nav.logs", icon: ScrollTextIcon, permission: "logs.view" },
      {
        path: "/admin/security",
        label: "nav.security",
        icon: GaugeIcon,
        permission: "settings.manage",
      },
      {
        path: "/admin/automation",
        label: "nav.automation",
        icon: CalendarClockIcon,
        permission: "automation.run",
      },
      { path: "/admin/mail", label: "nav.mail", icon: MailIcon, permission: "mail.view" },
      {
        path: "/admin/settings",
        label: "nav.settings",
        icon: SettingsIcon,
        permission: "settings.manage",
      },
      { path: "/admin/staff", label: "nav.staff", icon: UserCogIcon, permission: "staff.manage" },
    ],
  },
];

export const ADMIN_NOTIFICATIONS_ICON = BellIcon;

/**
 * The menu item a page belongs to: the one whose path is the page's or the nearest above it (a ticket
 * is the tickets', the canned replies under /admin/tickets are their own).
 */
export function navItemForPath(pathname: string): AdminNavItem | undefined {
  const clean = pathname.replace(/\/+$/, "") || "/admin";
  let found: AdminNavItem | undefined;
  for (const group of ADMIN_NAV) {
    for (const item of group.items) {
      const under =
        clean === item.path || (item.path !== "/admin" && clean.startsWith(`${item.path}/`));
      if (under && item.path.length > (found?.path.length ?? 0)) found = item;
    }
  }
  return found;
}

/** The menu a member of the staff sees: the groups with the pages their role may use, empty groups left out. */
export function adminNavFor(role: StaffRole | null) {
  return ADMIN_NAV.map((group) => ({
    ...group,
    items: group.items.filter((item) => item.permission === null || can(role, item.permission)),
  })).filter((group) => group.items.length > 0);
}
