import { z } from "~/lib/zod";
import { readPrice, readAmountCents } from "./field-amounts";
import { expected, field, lenient } from "./field-basics";
import {
  readEmail,
  readFlag,
  readLegacyId,
  readPassword,
  readRequiredText,
  readText,
} from "./field-readers";

// The shape of each collection's records in the old app (vouchers in schema-voucher.ts). Liberal where
// the old app was inconsistent, strict where it matters (emails and amounts).

const optionalPrice = field((value) => readPrice(value, false));

export const userSchema = z.object(
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

export const serviceSchema = z.object(
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

/** What an order and a user service share: both point at a user and a service. */
const ownedService = {
  id: field(readLegacyId),
  userId: field(readLegacyId),
  serviceId: field(readLegacyId),
  serviceName: field(readText),
  status: field(readText),
  price: optionalPrice,
  createdAt: lenient,
};

export const orderSchema = z.object(
  {
    ...ownedService,
    paidWithCoins: field(readFlag),
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

export const userServiceSchema = z.object(
  { ...ownedService, expiresAt: lenient },
  { error: expected("an object (a user service)") },
);

export const announcementSchema = z.object(
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

export type RawUser = z.infer<typeof userSchema>;
export type RawService = z.infer<typeof serviceSchema>;
export type RawOrder = z.infer<typeof orderSchema>;
export type RawUserService = z.infer<typeof userServiceSchema>;
/** The fields an order and a user service share (ownedService). */
export type RawOwned = Pick<RawUserService, keyof typeof ownedService>;
export type RawAnnouncement = z.infer<typeof announcementSchema>;
