import type { Role } from "~/domain/accounts/accounts";
import type { Announcement } from "~/domain/announcements/announcements";
import type { Product, ProductStatus, ProductType } from "~/domain/catalogue/catalogue";
import type { ServiceStatus } from "~/domain/hosting-services/hosting-services";
import type {
  Backup,
  BillingCycle,
  Location,
  OrderStatus,
  VoucherTerms,
} from "~/domain/orders/orders";

// What the importer works on: normalised records, each with the place it came from (`ref`) and, but for
// users (matched by email), the old identity it is remembered by (`key`).

export interface ImportUser {
  ref: string;
  email: string;
  name: string;
  /** Plain text, held in memory only until it is hashed; never in a report, a log or the database. */
  password: string | null;
  role: Role;
  coinsCents: number;
  /** Set when a negative balance was clamped to 0 (spec: coins never below 0). */
  coinsClampedFromCents: number | null;
  createdAt: string | null;
}

export interface ImportService {
  ref: string;
  key: string;
  name: string;
  slug: string;
  description: string;
  priceCents: number;
  features: string[];
  type: ProductType;
  status: ProductStatus;
  createdAt: string | null;
  specs: Product["specs"];
}

/** What an order and a user service share: they point at a user and a service by the old ids. */
interface ImportOwned {
  ref: string;
  key: string;
  userId: string | null;
  serviceId: string | null;
  serviceName: string | null;
  /** The old status when it had no equivalent and came in as our fallback (reported). */
  unknownStatus: string | null;
  priceCents: number | null;
  createdAt: string | null;
}

export interface ImportOrder extends ImportOwned {
  status: OrderStatus;
  paidWithCoins: boolean;
  billingCycle: BillingCycle;
  location: Location;
  ddosProtection: boolean;
  playerSlots: number | null;
  backup: Backup;
  serverName: string;
  serverType: ProductType | null;
}

export interface ImportUserService extends ImportOwned {
  status: ServiceStatus;
  expiresAt: string | null;
}

export interface ImportAnnouncement extends Pick<
  Announcement,
  "title" | "content" | "type" | "isActive" | "targetAudience"
> {
  ref: string;
  key: string;
  createdAt: string | null;
}

/** The discount as in our vouchers table: whole percent for a percentage, cents for a fixed one. */
type VoucherFields = "code" | "discountType" | "discountValue" | "minPurchaseCents" | "maxUses";

export interface ImportVoucher extends Pick<
  VoucherTerms,
  VoucherFields | "usedCount" | "isActive"
> {
  ref: string;
  key: string;
  description: string;
  validFrom: string | null;
  validUntil: string | null;
  createdAt: string | null;
  applicableServices: "all" | string[];
}
