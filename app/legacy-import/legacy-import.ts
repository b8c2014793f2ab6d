import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH, type Role } from "~/domain/accounts/accounts";
import type { ANNOUNCEMENT_TYPES, AUDIENCES } from "~/domain/announcements/announcements";
import type { ProductStatus, ProductType } from "~/domain/catalogue/catalogue";
import { MAX_ADJUSTMENT_CENTS } from "~/domain/coins/coins";
import type { ServiceStatus } from "~/domain/hosting-services/hosting-services";
import {
  MAX_SERVER_NAME_LENGTH,
  normalizeVoucherCode,
  type Backup,
  type BillingCycle,
  type Location,
  type OrderStatus,
} from "~/domain/orders/orders";
import { settingsSchema, type Settings, type SettingsSection } from "~/domain/settings/settings";
import { z } from "~/lib/zod";
import { parseJson, type JsonSyntaxError } from "./json-syntax";

/*
 * Reading the old storefront's data (spec section 3): its one database document, or a dump of a browser's
 * localStorage with that document under one key plus the legacy separate keys. Liberal where the old app
 * was inconsistent (ids as text or numbers, prices as numbers or numeric text, role or isAdmin, name or
 * username, missing fields), strict where it matters (emails and amounts). Nothing here touches the
 * database; legacy-import.server.ts does, in one transaction. See docs/legacy-import.md.
 */

/** The collections of the database document, in the order they are imported and reported. */
export const IMPORT_COLLECTIONS = [
  "users",
  "services",
  "orders",
  "userServices",
  "announcements",
  "vouchers",
  "settings",
  "tickets",
  "livechats",
] as const;
export type ImportCollection = (typeof IMPORT_COLLECTIONS)[number];

/** The separate keys the old login, registration and admin screens used beside the document. */
export const LEGACY_KEYS = [
  "users",
  "currentUser",
  "services",
  "orders",
  "userServices",
  "tickets",
] as const;
type LegacyKey = (typeof LEGACY_KEYS)[number];

export const MAX_TITLE_LENGTH = 150;
export const MAX_CONTENT_LENGTH = 5000;
export const MAX_DESCRIPTION_LENGTH = 1000;
export const MAX_VOUCHER_CODE_LENGTH = 40;
/** Spec section 9: an admin-added service, and an order, last 30 days. */
export const LEGACY_SERVICE_DAYS = 30;
/** The spec's seed voucher: 100 uses, 30 days. Used when a voucher omits them. */
export const DEFAULT_VOUCHER_USES = 100;
export const DEFAULT_VOUCHER_DAYS = 30;

// ---------------------------------------------------------------------------------------------------
// Field readers: each turns one JSON value into ours, or says what is wrong without quoting secrets.

type Read<T> = { ok: true; value: T } | { ok: false; message: string };
const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const bad = (message: string): Read<never> => ({ ok: false, message });

/** What a JSON value is, in words, for messages ("found a list"). */
export function describeJsonValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  switch (typeof value) {
    case "string":
      return "text";
    case "number":
      return "a number";
    case "boolean":
      return value ? "true" : "false";
    case "object":
      return "an object";
    default:
      return "nothing";
  }
}

/** A value quoted in a message: short, so a message never carries a long stretch of the file. */
export function shown(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

const isMissing = (value: unknown) =>
  value === undefined || value === null || (typeof value === "string" && value.trim() === "");

// `.optional()` first: zod 4 calls a missing key an error before any transform sees it; our readers
// decide for themselves what missing means.
function field<T>(read: (value: unknown) => Read<T>) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      const result = read(value);
      if (!result.ok) {
        ctx.addIssue({ code: "custom", message: result.message });
        return z.NEVER;
      }
      return result.value;
    });
}

/** Ids were timestamps as text in the registration flow and numbers elsewhere: both are the same id. */
export function readLegacyId(value: unknown): Read<string | null> {
  if (isMissing(value)) return ok(null);
  if (typeof value === "string") return ok(value.trim());
  if (typeof value === "number" && Number.isFinite(value)) return ok(String(value));
  return bad(`expected an id (text or a number), found ${describeJsonValue(value)}`);
}

function readText(value: unknown): Read<string | null> {
  if (isMissing(value)) return ok(null);
  if (typeof value === "string") return ok(value.trim());
  if (typeof value === "number" && Number.isFinite(value)) return ok(String(value));
  return bad(`expected text, found ${describeJsonValue(value)}`);
}

function readRequiredText(value: unknown): Read<string> {
  if (isMissing(value)) return bad("required, and missing or empty");
  const text = readText(value);
  return text.ok ? ok(text.value!) : text;
}

export function readEmail(value: unknown): Read<string> {
  if (isMissing(value)) return bad("required: every user needs an email address");
  if (typeof value !== "string")
    return bad(`expected an email address, found ${describeJsonValue(value)}`);
  const email = value.trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH || !z.email().safeParse(email).success)
    return bad(`${shown(value)} is not an email address`);
  return ok(email);
}

/** A password is taken exactly as typed (not trimmed); its value never appears in a message. */
function readPassword(value: unknown): Read<string | null> {
  if (value === undefined || value === null || value === "") return ok(null);
  if (typeof value === "string") return ok(value);
  if (typeof value === "number" && Number.isFinite(value)) return ok(String(value));
  return bad(`expected text, found ${describeJsonValue(value)}`);
}

/**
 * Euros (or coins, 1 coin = €1.00) as a number or numeric text, into integer cents, exactly: "4.50" and
 * 4.5 are 450; 0.1 + 0.2 as the old app's floats stored it is 30. An amount that is not whole cents
 * (4.275) is refused rather than rounded: money is never changed silently.
 */
export function readAmountCents(value: unknown): Read<number | null> {
  if (isMissing(value)) return ok(null);
  let cents: number;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return bad(`${shown(value)} is not an amount`);
    const raw = value * 100;
    cents = Math.round(raw);
    // Floats carry tiny errors (4.35 * 100 = 434.99999999999994); more than that is a real fraction.
    if (Math.abs(raw - cents) > 1e-6)
      return bad(`${shown(value)} has more than two decimals: amounts must be whole cents`);
  } else if (typeof value === "string") {
    const match = /^([+-]?)(\d{1,12})(?:[.,](\d+))?$/.exec(value.trim());
    if (!match) return bad(`${shown(value)} is not an amount (expected a number like 4.50)`);
    const fraction = match[3] ?? "";
    if (fraction.replace(/0+$/, "").length > 2)
      return bad(`${shown(value)} has more than two decimals: amounts must be whole cents`);
    cents = Number(match[2]) * 100 + Number(fraction.slice(0, 2).padEnd(2, "0"));
    if (match[1] === "-") cents = -cents;
  } else {
    return bad(`expected an amount in euros (a number), found ${describeJsonValue(value)}`);
  }
  if (Object.is(cents, -0)) cents = 0;
  if (Math.abs(cents) > MAX_ADJUSTMENT_CENTS)
    return bad(`${shown(value)} is more than €1,000,000: check it`);
  return ok(cents);
}

function readPrice(value: unknown, required: boolean): Read<number | null> {
  if (required && isMissing(value)) return bad("required, and missing or empty");
  const amount = readAmountCents(value);
  if (amount.ok && amount.value !== null && amount.value < 0)
    return bad(`${shown(value)} is negative`);
  return amount;
}

const TRUE_WORDS = ["true", "yes", "on", "1"];
const FALSE_WORDS = ["false", "no", "off", "0"];

function readFlag(value: unknown): Read<boolean | null> {
  if (isMissing(value)) return ok(null);
  if (typeof value === "boolean") return ok(value);
  if (value === 1 || value === 0) return ok(value === 1);
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.includes(word)) return ok(true);
    if (FALSE_WORDS.includes(word)) return ok(false);
  }
  return bad(`expected true or false, found ${shown(value)}`);
}

/** A whole number (uses, counts): a number or numeric text. */
function readCount(value: unknown): Read<number | null> {
  if (isMissing(value)) return ok(null);
  const n = typeof value === "string" ? Number(value.trim()) : value;
  if (typeof n === "number" && Number.isSafeInteger(n) && n >= 0 && n <= 1_000_000_000)
    return ok(n);
  return bad(`expected a whole number of 0 or more, found ${shown(value)}`);
}

/**
 * A time as the old app wrote it (ISO text, or a millisecond timestamp like its ids). Lenient: a missing
 * or unreadable time is null and the importer uses its fallback, since no money depends on it.
 */
export function readLegacyDate(value: unknown): string | null {
  let ms: number;
  if (typeof value === "number" && Number.isFinite(value)) {
    ms = value < 1e11 ? value * 1000 : value;
  } else if (typeof value === "string" && value.trim()) {
    const text = value.trim();
    ms = /^\d{9,13}$/.test(text)
      ? Number(text) * (Number(text) < 1e11 ? 1000 : 1)
      : Date.parse(text);
  } else {
    return null;
  }
  if (!Number.isFinite(ms)) return null;
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  return year >= 1990 && year <= 2200 ? date.toISOString() : null;
}

/** Specs were numbers or text like "2 GB", "1 vCPU", "512MB": whole GB, cores or slots, else null. */
export function readSpecNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : null;
  if (typeof value !== "string") return null;
  const match = /^\s*(\d+(?:[.,]\d+)?)\s*([a-z]*)/i.exec(value);
  if (!match) return null;
  let n = Number(match[1]!.replace(",", "."));
  const unit = match[2]!.toLowerCase();
  if (unit === "mb") n = n / 1024;
  else if (unit === "tb") n = n * 1024;
  return n;
}

function wholeSpec(value: unknown): number | null {
  const n = readSpecNumber(value);
  return n === null || n > 1_000_000 ? null : Math.max(n > 0 ? 1 : 0, Math.round(n));
}

function readStringList(value: unknown): string[] {
  if (typeof value === "string")
    return value
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
  if (!Array.isArray(value)) return [];
  return value
    .map((item) =>
      typeof item === "string" || typeof item === "number" ? String(item).trim() : "",
    )
    .filter(Boolean)
    .map((item) => item.slice(0, 200));
}

const lenient = z.unknown().optional();

const expected = (what: string) => (issue: { input?: unknown }) =>
  `expected ${what}, found ${describeJsonValue(issue.input)}`;

// ---------------------------------------------------------------------------------------------------
// Record schemas: the shape of each collection's records in the old app.

const userSchema = z.object(
  {
    id: field(readLegacyId),
    name: field(readText),
    username: field(readText),
    email: field(readEmail),
    password: field(readPassword),
    role: field(readText),
    isAdmin: field(readFlag),
    coins: field(readAmountCents),
    createdAt: lenient,
    status: field(readText),
  },
  { error: expected("an object (a user)") },
);

const serviceSchema = z.object(
  {
    id: field(readLegacyId),
    name: field(readRequiredText),
    description: field(readText),
    price: field((value) => readPrice(value, true)),
    features: lenient,
    type: field(readText),
    category: field(readText),
    status: field(readText),
    createdAt: lenient,
    specs: lenient,
  },
  { error: expected("an object (a service)") },
);

const orderSchema = z.object(
  {
    id: field(readLegacyId),
    userId: field(readLegacyId),
    serviceId: field(readLegacyId),
    serviceName: field(readText),
    status: field(readText),
    price: field((value) => readPrice(value, false)),
    paidWithCoins: field(readFlag),
    createdAt: lenient,
    startDate: lenient,
    billingCycle: field(readText),
    location: field(readText),
    ddosProtection: field(readFlag),
    playerSlots: lenient,
    backup: field(readText),
    serverName: field(readText),
    serverType: field(readText),
  },
  { error: expected("an object (an order)") },
);

const userServiceSchema = z.object(
  {
    id: field(readLegacyId),
    userId: field(readLegacyId),
    serviceId: field(readLegacyId),
    serviceName: field(readText),
    status: field(readText),
    price: field((value) => readPrice(value, false)),
    createdAt: lenient,
    expiresAt: lenient,
  },
  { error: expected("an object (a user service)") },
);

const announcementSchema = z.object(
  {
    id: field(readLegacyId),
    title: field(readRequiredText),
    content: field(readRequiredText),
    type: field(readText),
    isActive: field(readFlag),
    createdAt: lenient,
    targetAudience: field(readText),
  },
  { error: expected("an object (an announcement)") },
);

const voucherSchema = z
  .object(
    {
      id: field(readLegacyId),
      code: field((value) => {
        const code = readRequiredText(value);
        if (code.ok && code.value.length > MAX_VOUCHER_CODE_LENGTH)
          return bad(`longer than ${MAX_VOUCHER_CODE_LENGTH} characters`);
        return code;
      }),
      description: field(readText),
      discountType: field(readText),
      discountValue: lenient,
      minPurchase: field((value) => readPrice(value, false)),
      maxUses: field(readCount),
      usedCount: field(readCount),
      isActive: field(readFlag),
      validFrom: lenient,
      validUntil: lenient,
      createdAt: lenient,
      applicableServices: lenient,
    },
    { error: expected("an object (a voucher)") },
  )
  .transform((voucher, ctx) => {
    const type = voucherType(voucher.discountType);
    if (!type) {
      ctx.addIssue({
        code: "custom",
        path: ["discountType"],
        message: `${shown(voucher.discountType)} is neither percentage nor fixed`,
      });
      return z.NEVER;
    }
    const discount = readDiscount(type, voucher.discountValue);
    if (!discount.ok) {
      ctx.addIssue({ code: "custom", path: ["discountValue"], message: discount.message });
      return z.NEVER;
    }
    return { ...voucher, discountType: type, discountCentsOrPercent: discount.value };
  });

function voucherType(value: string | null): "percentage" | "fixed" | null {
  const word = (value ?? "percentage").toLowerCase();
  if (["percentage", "percent", "%", "pct"].includes(word)) return "percentage";
  if (["fixed", "amount", "flat"].includes(word)) return "fixed";
  return null;
}

/** A percentage is a whole percent from 1 to 100 ("10" or "10%"); a fixed discount is whole cents. */
function readDiscount(type: "percentage" | "fixed", value: unknown): Read<number> {
  if (isMissing(value)) return bad("required, and missing or empty");
  if (type === "fixed") {
    const cents = readAmountCents(value);
    if (!cents.ok) return cents;
    return cents.value! > 0 ? ok(cents.value!) : bad(`${shown(value)} must be more than 0`);
  }
  const n = typeof value === "string" ? Number(value.trim().replace(/%$/, "")) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 100)
    return bad(`${shown(value)} is not a whole percent from 1 to 100`);
  return ok(n);
}

const settingsObject = z.record(z.string(), z.unknown(), { error: expected("an object") });

function list<T extends z.ZodType>(item: T, what: string) {
  return z.array(item, { error: expected(`a list of ${what}`) }).nullish();
}

const documentSchema = z.object({
  users: list(userSchema, "users"),
  services: list(serviceSchema, "services"),
  orders: list(orderSchema, "orders"),
  userServices: list(userServiceSchema, "user services"),
  announcements: list(announcementSchema, "announcements"),
  vouchers: list(voucherSchema, "vouchers"),
  settings: settingsObject.nullish(),
  tickets: list(z.unknown(), "tickets"),
  livechats: list(z.unknown(), "live chats"),
});

const legacyKeySchemas: Record<LegacyKey, z.ZodType> = {
  users: list(userSchema, "users"),
  currentUser: userSchema.nullish(),
  services: list(serviceSchema, "services"),
  orders: list(orderSchema, "orders"),
  userServices: list(userServiceSchema, "user services"),
  tickets: list(z.unknown(), "tickets"),
};

type RawUser = z.infer<typeof userSchema>;
type RawService = z.infer<typeof serviceSchema>;
type RawOrder = z.infer<typeof orderSchema>;
type RawUserService = z.infer<typeof userServiceSchema>;
type RawAnnouncement = z.infer<typeof announcementSchema>;
type RawVoucher = z.infer<typeof voucherSchema>;
type RawDocument = z.infer<typeof documentSchema>;

// ---------------------------------------------------------------------------------------------------
// What the importer works on: normalised records, each with the place it came from.

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
  specs: {
    ramGb: number | null;
    storageGb: number | null;
    cpuCores: number | null;
    slots: number | null;
  };
}

export interface ImportOrder {
  ref: string;
  key: string;
  userId: string | null;
  serviceId: string | null;
  serviceName: string | null;
  status: OrderStatus;
  /** The old status when it had no equivalent and the order came in as pending. */
  unknownStatus: string | null;
  priceCents: number | null;
  paidWithCoins: boolean;
  createdAt: string | null;
  billingCycle: BillingCycle;
  location: Location;
  ddosProtection: boolean;
  playerSlots: number | null;
  backup: Backup;
  serverName: string;
  serverType: ProductType | null;
}

export interface ImportUserService {
  ref: string;
  key: string;
  userId: string | null;
  serviceId: string | null;
  serviceName: string | null;
  status: ServiceStatus;
  unknownStatus: string | null;
  priceCents: number | null;
  createdAt: string | null;
  expiresAt: string | null;
}

export interface ImportAnnouncement {
  ref: string;
  key: string;
  title: string;
  content: string;
  type: (typeof ANNOUNCEMENT_TYPES)[number];
  isActive: boolean;
  targetAudience: (typeof AUDIENCES)[number];
  createdAt: string | null;
}

export interface ImportVoucher {
  ref: string;
  key: string;
  code: string;
  description: string;
  discountType: "percentage" | "fixed";
  /** Whole percent for a percentage, cents for a fixed discount (as in our vouchers table). */
  discountValue: number;
  minPurchaseCents: number;
  maxUses: number;
  usedCount: number;
  isActive: boolean;
  validFrom: string | null;
  validUntil: string | null;
  createdAt: string | null;
  applicableServices: "all" | string[];
}

export interface ImportSetting {
  ref: string;
  /** The old setting's path ("theme.primaryColor"): its key in the import record. */
  key: string;
  section: SettingsSection;
  field: string;
  value: unknown;
}

export type SkipReason =
  | { code: "duplicate"; of: string }
  | { code: "noId" }
  | { code: "inactiveUser"; status: string }
  | { code: "emailTaken" }
  | { code: "userMissing"; userId: string | null }
  | { code: "userNotImported"; userRef: string }
  | { code: "serviceMissing"; serviceId: string | null; name: string | null }
  | { code: "voucherCodeTaken" }
  | { code: "settingInvalid"; detail: string }
  | { code: "settingNotImported" }
  | { code: "settingUnknown" }
  | { code: "notSupported"; count: number };

export type ImportNote =
  | { code: "mustChangePassword"; why: "short" | "common" }
  | { code: "oneTimePassword"; why: "admin" | "noPassword" }
  | { code: "coinsClamped"; fromCents: number }
  | { code: "productKept"; slug: string; priceCents: number; legacyPriceCents: number }
  | { code: "copiesDiffer"; fields: string[]; kept: string }
  | { code: "statusMapped"; from: string; to: string }
  | { code: "usedCountClamped"; fromCount: number }
  | { code: "servicesDropped"; ids: string[] };

export interface SkipLine {
  collection: ImportCollection;
  ref: string;
  label: string;
  reason: SkipReason;
}

export interface NoteLine {
  collection: ImportCollection;
  ref: string;
  label: string;
  note: ImportNote;
}

export interface SourceSummary {
  shape: "document" | "localStorage";
  /** The localStorage key that held the database document. */
  mainKey: string | null;
  /** Legacy separate keys read, with how many of their records were already in the document. */
  legacyKeys: { key: string; records: number; merged: number }[];
  /** localStorage keys, or document fields, that are not the old storefront's data. */
  ignored: string[];
}

export interface LegacyDataset {
  source: SourceSummary;
  users: ImportUser[];
  services: ImportService[];
  orders: ImportOrder[];
  userServices: ImportUserService[];
  announcements: ImportAnnouncement[];
  vouchers: ImportVoucher[];
  settings: ImportSetting[];
  /** Records turned away before the database is read: duplicates, no id, no equivalent here. */
  skipped: SkipLine[];
  notes: NoteLine[];
  /** Every legacy user id in the file (any copy) → its user's email, for orders that point at users. */
  userEmailById: Map<string, string>;
  /** Users turned away before the database is read, by email, so their orders say why. */
  skippedUserRefs: Map<string, string>;
}

export interface FileProblem {
  /** Where: "users[3].email", `localStorage["orders"][0].price`, or "" for the file as a whole. */
  path: string;
  message: string;
}

export type ReadResult =
  { ok: true; dataset: LegacyDataset } | { ok: false; problems: FileProblem[] };

// ---------------------------------------------------------------------------------------------------
// Mapping the old values onto ours.

const lower = (value: string | null) => (value ?? "").trim().toLowerCase();

export function legacyRole(user: { role: string | null; isAdmin: boolean | null }): Role {
  return lower(user.role) === "admin" || user.isAdmin === true ? "admin" : "user";
}

/** The old type (samp, mta, vps), else the category, else the name; anything else is a game server. */
export function legacyProductType(
  type: string | null,
  category: string | null,
  name: string,
): ProductType {
  const word = lower(type).replace(/[^a-z]/g, "");
  if (word === "samp") return "samp";
  if (word === "mta" || word === "mtasa") return "mta";
  if (word === "vps") return "vps";
  if (["game", "games", "gaming", "gamehosting"].includes(word)) return "game";
  if (lower(category).includes("vps")) return "vps";
  const title = lower(name);
  if (/\bsa-?mp\b/.test(title)) return "samp";
  if (/\bmta\b/.test(title)) return "mta";
  if (/\bvps\b/.test(title)) return "vps";
  return "game";
}

function optionalProductType(type: string | null): ProductType | null {
  if (!type) return null;
  const word = lower(type).replace(/[^a-z]/g, "");
  return word === "samp" || word === "mta" || word === "vps" || word === "game"
    ? word
    : word === "mtasa"
      ? "mta"
      : null;
}

export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
}

const ORDER_STATUSES_FROM: Record<string, OrderStatus> = {
  pending: "pending",
  approved: "approved",
  active: "approved",
  accepted: "approved",
  completed: "approved",
  complete: "approved",
  rejected: "rejected",
  declined: "rejected",
  cancelled: "rejected",
  canceled: "rejected",
};

/** Our status for an old order; one with no equivalent comes in as pending (reported). */
export function legacyOrderStatus(status: string | null): {
  status: OrderStatus;
  unknown: string | null;
} {
  if (!status) return { status: "pending", unknown: null };
  const mapped = ORDER_STATUSES_FROM[lower(status)];
  return mapped ? { status: mapped, unknown: null } : { status: "pending", unknown: status };
}

const SERVICE_STATUSES_FROM: Record<string, ServiceStatus> = {
  active: "active",
  // We show an active service past its expiry as expired ourselves.
  expired: "active",
  suspended: "suspended",
  inactive: "suspended",
  paused: "suspended",
  terminated: "terminated",
  cancelled: "terminated",
  canceled: "terminated",
  deleted: "terminated",
};

/** Our status for an old user service; one with no equivalent comes in suspended (reported). */
export function legacyServiceStatus(status: string | null): {
  status: ServiceStatus;
  unknown: string | null;
} {
  if (!status) return { status: "active", unknown: null };
  const mapped = SERVICE_STATUSES_FROM[lower(status)];
  return mapped ? { status: mapped, unknown: null } : { status: "suspended", unknown: status };
}

export function legacyBillingCycle(value: string | null): BillingCycle {
  const word = lower(value).replace(/[^a-z]/g, "");
  if (word === "quarterly" || word === "quarter") return "quarterly";
  if (["semiannual", "semiannually", "halfyearly", "biannual"].includes(word)) return "semiannual";
  if (["annual", "annually", "yearly", "year"].includes(word)) return "annual";
  return "monthly";
}

function pick<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  const word = lower(value) as T;
  return allowed.includes(word) ? word : fallback;
}

function announcementType(value: string | null): ImportAnnouncement["type"] {
  const word = lower(value);
  if (["warning", "error", "danger", "alert", "maintenance"].includes(word)) return "warning";
  if (word === "success") return "success";
  return "info";
}

function audience(value: string | null): ImportAnnouncement["targetAudience"] {
  const word = lower(value);
  if (["customers", "customer", "users", "user", "clients"].includes(word)) return "customers";
  if (["admins", "admin", "staff"].includes(word)) return "admins";
  return "all";
}

// ---------------------------------------------------------------------------------------------------
// Settings: the old flat settings onto our sections, one field at a time.

/** The old settings' paths and where each lands in ours. */
export const SETTINGS_MAP: Record<string, [SettingsSection, string]> = {
  siteName: ["general", "siteName"],
  siteDescription: ["general", "siteDescription"],
  contactEmail: ["general", "contactEmail"],
  maintenanceMessage: ["general", "maintenanceMessage"],
  discordLink: ["links", "discord"],
  "theme.primaryColor": ["theme", "primaryColor"],
  "theme.secondaryColor": ["theme", "secondaryColor"],
  "theme.accentColor": ["theme", "accentColor"],
  "features.registration": ["features", "registration"],
  "features.coinPurchase": ["features", "coinPurchase"],
  "features.livechat": ["features", "livechat"],
  "features.tickets": ["features", "tickets"],
  "seo.title": ["seo", "title"],
  "seo.description": ["seo", "description"],
  "seo.keywords": ["seo", "keywords"],
};

/**
 * Settings that describe the old site rather than this one. The old site was likely put in maintenance
 * for the move; copying that switch would close Hostfront the moment it opens.
 */
export const SETTINGS_NOT_IMPORTED = ["maintenanceMode"];

/** Light clean-up before the settings schema judges a value: trimmed text, "#abc" colours, "true". */
function settingValue(field: string, value: unknown): unknown {
  if (typeof value === "string") {
    const text = value.trim();
    if (/color$/i.test(field) && /^#[0-9a-fA-F]{3}$/.test(text))
      return `#${[...text.slice(1)].map((c) => c + c).join("")}`;
    if (["registration", "coinPurchase", "livechat", "tickets"].includes(field)) {
      if (TRUE_WORDS.includes(text.toLowerCase())) return true;
      if (FALSE_WORDS.includes(text.toLowerCase())) return false;
    }
    return text;
  }
  return value;
}

/**
 * One old setting applied to our section, validated by the settings schema: the section with the new
 * value, or why the value cannot be used (the site keeps its current one).
 */
export function applySetting<S extends SettingsSection>(
  current: Settings[S],
  section: S,
  field: string,
  raw: unknown,
): Read<Settings[S]> {
  const value = settingValue(field, raw);
  const parsed = settingsSchema.shape[section].safeParse({ ...current, [field]: value });
  if (parsed.success) return ok(parsed.data as Settings[S]);
  const kind =
    /color$/i.test(field) && typeof value === "string"
      ? "is not a colour like #2563eb"
      : field === "contactEmail" && typeof value === "string"
        ? "is not an email address"
        : section === "links" && typeof value === "string"
          ? "is not a web address (https://...)"
          : typeof value === "string"
            ? "is too long or empty"
            : `is ${describeJsonValue(value)}, not what this setting takes`;
  return bad(`${shown(value)} ${kind}`);
}

function flattenSettings(settings: Record<string, unknown>): [string, unknown][] {
  return Object.entries(settings).flatMap(([key, value]) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.entries(value as Record<string, unknown>).map(
          ([child, v]) => [`${key}.${child}`, v] as [string, unknown],
        )
      : [[key, value] as [string, unknown]],
  );
}

// ---------------------------------------------------------------------------------------------------
// Reading the file.

function formatPath(prefix: string, path: PropertyKey[]): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

function jsonProblem(where: string, error: JsonSyntaxError): FileProblem {
  return {
    path: where,
    message: `not valid JSON: line ${error.line}, column ${error.column}: ${error.message}`,
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const looksLikeDocument = (value: unknown): value is Record<string, unknown> =>
  isPlainObject(value) &&
  IMPORT_COLLECTIONS.some((c) => c !== "settings" && Array.isArray(value[c]));

interface Source {
  /** How this source is named in paths: "" for the document, `localStorage["users"]` for a key. */
  prefix: string;
  index: number;
  document?: RawDocument;
  legacyKey?: LegacyKey;
  legacy?: unknown;
}

const storageRef = (key: string) => `localStorage[${JSON.stringify(key)}]`;

/** Where a record came from: `users[3]`, `localStorage["db"].users[3]`, `localStorage["users"][3]`. */
function recordRef(source: Source, collection: string, index: number | null): string {
  if (source.document)
    return formatPath(source.prefix, [collection, ...(index === null ? [] : [index])]);
  return formatPath(source.prefix, index === null ? [] : [index]);
}

/**
 * Reads an import file: (a) the old database document, or (b) a localStorage dump (key → JSON text) with
 * the document under one key and the legacy separate keys beside it. Every problem is found and named
 * before anything is imported; with any problem, nothing is.
 */
export function readLegacyFile(text: string): ReadResult {
  const body = text.replace(/^\uFEFF/, "");
  if (!body.trim()) return refuse("", "the file is empty");
  const parsed = parseJson(body);
  if (!parsed.ok) return { ok: false, problems: [jsonProblem("", parsed.error)] };
  const root = parsed.value;
  if (!isPlainObject(root))
    return refuse(
      "",
      `expected an object (the old storefront's database document or a localStorage dump), found ${describeJsonValue(root)}`,
    );

  const problems: FileProblem[] = [];
  const sources: Source[] = [];
  const summary: SourceSummary = { shape: "document", mainKey: null, legacyKeys: [], ignored: [] };
  const values = Object.values(root);

  if (values.length > 0 && values.every((value) => typeof value === "string")) {
    summary.shape = "localStorage";
    const candidates: [string, unknown][] = [];
    for (const [key, value] of Object.entries(root) as [string, string][]) {
      if ((LEGACY_KEYS as readonly string[]).includes(key)) continue;
      const inner = parseJson(value);
      if (inner.ok && looksLikeDocument(inner.value)) candidates.push([key, inner.value]);
      else summary.ignored.push(key);
    }
    if (candidates.length > 1)
      return refuse(
        "",
        `several keys hold a database document (${candidates.map(([k]) => JSON.stringify(k)).join(", ")}): keep the one to import and run again`,
      );
    if (candidates[0]) {
      summary.mainKey = candidates[0][0];
      sources.push({ prefix: storageRef(candidates[0][0]), index: 0, document: {} as RawDocument });
      validateDocument(candidates[0][1], sources[0]!, problems);
    }
    for (const key of LEGACY_KEYS) {
      const value = root[key];
      if (typeof value !== "string" || !value.trim()) continue;
      const inner = parseJson(value);
      if (!inner.ok) {
        problems.push(jsonProblem(storageRef(key), inner.error));
        continue;
      }
      if (inner.value === null) continue;
      const source: Source = { prefix: storageRef(key), index: sources.length, legacyKey: key };
      const result = legacyKeySchemas[key].safeParse(inner.value);
      if (!result.success) {
        for (const issue of result.error.issues)
          problems.push({ path: formatPath(source.prefix, issue.path), message: issue.message });
      } else if (result.data !== null && result.data !== undefined) {
        source.legacy = result.data;
        sources.push(source);
      }
    }
    if (problems.length === 0 && sources.length === 0)
      return refuse(
        "",
        "this localStorage dump holds none of the old storefront's data: no key holds its database document (an object with users, services, orders...) and there is no users, orders or userServices key",
      );
  } else {
    if (!IMPORT_COLLECTIONS.some((collection) => collection in root))
      return refuse(
        "",
        "this is neither the old storefront's database document (users, services, orders, userServices, announcements, vouchers, settings...) nor a localStorage dump (every value text)",
      );
    summary.ignored = Object.keys(root).filter(
      (key) => !(IMPORT_COLLECTIONS as readonly string[]).includes(key),
    );
    sources.push({ prefix: "", index: 0, document: {} as RawDocument });
    validateDocument(root, sources[0]!, problems);
  }

  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, dataset: buildDataset(sources, summary) };
}

function refuse(path: string, message: string): ReadResult {
  return { ok: false, problems: [{ path, message }] };
}

function validateDocument(value: unknown, source: Source, problems: FileProblem[]) {
  const result = documentSchema.safeParse(value);
  if (!result.success) {
    for (const issue of result.error.issues)
      problems.push({ path: formatPath(source.prefix, issue.path), message: issue.message });
    return;
  }
  source.document = result.data;
}

/** The records of one collection from every source, in precedence order (the document first). */
function recordsOf<T>(sources: Source[], collection: LegacyKey | ImportCollection) {
  const out: { source: Source; ref: string; record: T }[] = [];
  for (const source of sources) {
    if (source.document) {
      const records = source.document[collection as keyof RawDocument];
      if (Array.isArray(records))
        records.forEach((record, index) =>
          out.push({ source, ref: recordRef(source, collection, index), record: record as T }),
        );
    } else if (
      source.legacyKey === collection ||
      (collection === "users" && source.legacyKey === "currentUser")
    ) {
      if (Array.isArray(source.legacy))
        source.legacy.forEach((record, index) =>
          out.push({ source, ref: recordRef(source, collection, index), record: record as T }),
        );
      else if (source.legacy)
        out.push({ source, ref: recordRef(source, collection, null), record: source.legacy as T });
    }
  }
  return out;
}

/**
 * Normalises every record and merges the sources. The document wins over a legacy key for a record in
 * both (users by email, vouchers by code, the rest by id); a record only in a legacy key is added. Two
 * records with one identity in the same source are a real duplicate: the first is kept, the second skipped.
 */
function buildDataset(sources: Source[], summary: SourceSummary): LegacyDataset {
  const data: LegacyDataset = {
    source: summary,
    users: [],
    services: [],
    orders: [],
    userServices: [],
    announcements: [],
    vouchers: [],
    settings: [],
    skipped: [],
    notes: [],
    userEmailById: new Map(),
    skippedUserRefs: new Map(),
  };
  const legacyStats = new Map<number, { key: string; records: number; merged: number }>();
  for (const source of sources)
    if (source.legacyKey)
      legacyStats.set(source.index, { key: source.legacyKey, records: 0, merged: 0 });

  /** Keeps the first record of each identity; says whether this one is new. */
  function dedupe<R>(
    collection: ImportCollection,
    seen: Map<string, { source: Source; ref: string; record: R }>,
    entry: { source: Source; ref: string; record: R },
    key: string,
    label: string,
    compare?: (kept: R, copy: R) => string[],
  ): boolean {
    const stats = legacyStats.get(entry.source.index);
    if (stats) stats.records++;
    const first = seen.get(key);
    if (!first) {
      seen.set(key, entry);
      return true;
    }
    if (first.source === entry.source) {
      data.skipped.push({
        collection,
        ref: entry.ref,
        label,
        reason: { code: "duplicate", of: first.ref },
      });
    } else {
      if (stats) stats.merged++;
      const fields = compare?.(first.record, entry.record) ?? [];
      if (fields.length)
        data.notes.push({
          collection,
          ref: entry.ref,
          label,
          note: { code: "copiesDiffer", fields, kept: first.ref },
        });
    }
    return false;
  }

  const users = new Map<string, { source: Source; ref: string; record: RawUser }>();
  for (const entry of recordsOf<RawUser>(sources, "users")) {
    const user = entry.record;
    if (user.id !== null && !data.userEmailById.has(user.id))
      data.userEmailById.set(user.id, user.email);
    const compare = (a: RawUser, b: RawUser) =>
      (["password", "coins", "role", "isAdmin", "name"] as const).filter(
        (f) => (a[f] ?? null) !== (b[f] ?? null),
      );
    if (!dedupe("users", users, entry, user.email, user.email, compare)) continue;
    const status = lower(user.status);
    if (status && status !== "active") {
      data.skipped.push({
        collection: "users",
        ref: entry.ref,
        label: user.email,
        reason: { code: "inactiveUser", status: user.status! },
      });
      data.skippedUserRefs.set(user.email, entry.ref);
      continue;
    }
    const coins = user.coins ?? 0;
    data.users.push({
      ref: entry.ref,
      email: user.email,
      name: (user.name || user.username || user.email.split("@")[0]!).slice(0, MAX_NAME_LENGTH),
      password: user.password,
      role: legacyRole(user),
      coinsCents: Math.max(0, coins),
      coinsClampedFromCents: coins < 0 ? coins : null,
      createdAt: readLegacyDate(user.createdAt),
    });
  }

  const services = new Map<string, { source: Source; ref: string; record: RawService }>();
  for (const entry of recordsOf<RawService>(sources, "services")) {
    const service = entry.record;
    const slug = slugify(service.name);
    const key = service.id ?? `name:${slug || service.name}`;
    if (!dedupe("services", services, entry, key, service.name)) continue;
    const specs = isPlainObject(service.specs) ? service.specs : {};
    const type = legacyProductType(service.type, service.category, service.name);
    data.services.push({
      ref: entry.ref,
      key,
      name: service.name.slice(0, 100),
      slug: slug || `legacy-service-${slugify(key) || data.services.length + 1}`,
      description: (service.description ?? "").slice(0, MAX_DESCRIPTION_LENGTH),
      priceCents: service.price!,
      features: readStringList(service.features),
      type,
      status: !service.status || lower(service.status) === "active" ? "active" : "hidden",
      createdAt: readLegacyDate(service.createdAt),
      specs: {
        ramGb: wholeSpec(specs.ram),
        storageGb: wholeSpec(specs.storage),
        cpuCores: wholeSpec(specs.cpu),
        slots: type === "vps" ? null : wholeSpec(specs.slots),
      },
    });
  }

  const orders = new Map<string, { source: Source; ref: string; record: RawOrder }>();
  for (const entry of recordsOf<RawOrder>(sources, "orders")) {
    const order = entry.record;
    const label = order.serviceName ?? (order.id ? `order ${order.id}` : "order");
    if (order.id === null) {
      data.skipped.push({ collection: "orders", ref: entry.ref, label, reason: { code: "noId" } });
      continue;
    }
    if (!dedupe("orders", orders, entry, order.id, label)) continue;
    const status = legacyOrderStatus(order.status);
    const slots = wholeSpec(order.playerSlots);
    data.orders.push({
      ref: entry.ref,
      key: order.id,
      userId: order.userId,
      serviceId: order.serviceId,
      serviceName: order.serviceName,
      status: status.status,
      unknownStatus: status.unknown,
      priceCents: order.price,
      // Unknown means not charged: rejecting an imported order must never refund coins never taken.
      paidWithCoins: order.paidWithCoins === true,
      createdAt: readLegacyDate(order.createdAt) ?? readLegacyDate(order.startDate),
      billingCycle: legacyBillingCycle(order.billingCycle),
      location: pick(order.location, ["germany", "usa", "uk", "france"] as const, "germany"),
      ddosProtection: order.ddosProtection !== false,
      playerSlots: slots,
      backup: pick(order.backup, ["choliba", "premium", "none"] as const, "choliba"),
      serverName: (order.serverName ?? "").slice(0, MAX_SERVER_NAME_LENGTH),
      serverType: optionalProductType(order.serverType),
    });
  }

  const userServices = new Map<string, { source: Source; ref: string; record: RawUserService }>();
  for (const entry of recordsOf<RawUserService>(sources, "userServices")) {
    const service = entry.record;
    const label = service.serviceName ?? (service.id ? `service ${service.id}` : "service");
    if (service.id === null) {
      data.skipped.push({
        collection: "userServices",
        ref: entry.ref,
        label,
        reason: { code: "noId" },
      });
      continue;
    }
    if (!dedupe("userServices", userServices, entry, service.id, label)) continue;
    const status = legacyServiceStatus(service.status);
    data.userServices.push({
      ref: entry.ref,
      key: service.id,
      userId: service.userId,
      serviceId: service.serviceId,
      serviceName: service.serviceName,
      status: status.status,
      unknownStatus: status.unknown,
      priceCents: service.price,
      createdAt: readLegacyDate(service.createdAt),
      expiresAt: readLegacyDate(service.expiresAt),
    });
  }

  const announcements = new Map<string, { source: Source; ref: string; record: RawAnnouncement }>();
  for (const entry of recordsOf<RawAnnouncement>(sources, "announcements")) {
    const item = entry.record;
    if (item.id === null) {
      data.skipped.push({
        collection: "announcements",
        ref: entry.ref,
        label: item.title,
        reason: { code: "noId" },
      });
      continue;
    }
    if (!dedupe("announcements", announcements, entry, item.id, item.title)) continue;
    data.announcements.push({
      ref: entry.ref,
      key: item.id,
      title: item.title.slice(0, MAX_TITLE_LENGTH),
      content: item.content.slice(0, MAX_CONTENT_LENGTH),
      type: announcementType(item.type),
      isActive: item.isActive ?? true,
      targetAudience: audience(item.targetAudience),
      createdAt: readLegacyDate(item.createdAt),
    });
  }

  const vouchers = new Map<string, { source: Source; ref: string; record: RawVoucher }>();
  for (const entry of recordsOf<RawVoucher>(sources, "vouchers")) {
    const voucher = entry.record;
    const code = normalizeVoucherCode(voucher.code);
    if (!dedupe("vouchers", vouchers, entry, code, code)) continue;
    const maxUses = voucher.maxUses ?? DEFAULT_VOUCHER_USES;
    const used = voucher.usedCount ?? 0;
    if (used > maxUses)
      data.notes.push({
        collection: "vouchers",
        ref: entry.ref,
        label: code,
        note: { code: "usedCountClamped", fromCount: used },
      });
    data.vouchers.push({
      ref: entry.ref,
      key: code,
      code,
      description: (voucher.description ?? "").slice(0, 500),
      discountType: voucher.discountType,
      discountValue: voucher.discountCentsOrPercent,
      minPurchaseCents: voucher.minPurchase ?? 0,
      maxUses,
      usedCount: Math.min(used, maxUses),
      isActive: voucher.isActive ?? true,
      validFrom: readLegacyDate(voucher.validFrom),
      validUntil: readLegacyDate(voucher.validUntil),
      createdAt: readLegacyDate(voucher.createdAt),
      applicableServices: applicable(voucher.applicableServices),
    });
  }

  for (const source of sources) {
    const settings = source.document?.settings;
    if (!settings) continue;
    for (const [path, value] of flattenSettings(settings)) {
      const ref = formatPath(source.prefix, ["settings", ...path.split(".")]);
      const target = SETTINGS_MAP[path];
      if (target) {
        data.settings.push({ ref, key: path, section: target[0], field: target[1], value });
      } else {
        data.skipped.push({
          collection: "settings",
          ref,
          label: path,
          reason: {
            code: SETTINGS_NOT_IMPORTED.includes(path) ? "settingNotImported" : "settingUnknown",
          },
        });
      }
    }
  }

  for (const collection of ["tickets", "livechats"] as const) {
    for (const source of sources) {
      const records = source.document
        ? source.document[collection]
        : source.legacyKey === collection
          ? (source.legacy as unknown[])
          : null;
      if (!records?.length) continue;
      const stats = legacyStats.get(source.index);
      if (stats) stats.records += records.length;
      data.skipped.push({
        collection,
        ref: formatPath(source.prefix, source.document ? [collection] : []),
        label: `${records.length} record(s)`,
        reason: { code: "notSupported", count: records.length },
      });
    }
  }

  summary.legacyKeys = [...legacyStats.values()];
  return data;
}

function applicable(value: unknown): "all" | string[] {
  if (value === undefined || value === null) return "all";
  if (typeof value === "string")
    return lower(value) === "all" || !value.trim() ? "all" : [value.trim()];
  if (!Array.isArray(value)) return "all";
  const ids = value
    .map((item) =>
      typeof item === "number" || typeof item === "string" ? String(item).trim() : "",
    )
    .filter(Boolean);
  return ids.length === 0 || ids.some((id) => lower(id) === "all") ? "all" : ids;
}

// ---------------------------------------------------------------------------------------------------
// The report's figures (worded in legacy-import-report.ts).

export type Outcome = "imported" | "matched" | "skipped" | "already";
export type ImportCounts = Record<ImportCollection, Record<Outcome, number>>;

export function emptyCounts(): ImportCounts {
  return Object.fromEntries(
    IMPORT_COLLECTIONS.map((c) => [c, { imported: 0, matched: 0, skipped: 0, already: 0 }]),
  ) as ImportCounts;
}

export interface ImportReport {
  dryRun: boolean;
  source: SourceSummary;
  counts: ImportCounts;
  skipped: SkipLine[];
  notes: NoteLine[];
  /** One-time passwords of accounts that may not keep their old one (admins, no password). */
  oneTimePasswords: { email: string; password: string }[];
}
