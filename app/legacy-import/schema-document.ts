import { z } from "~/lib/zod";
import type { LegacyKey } from "./collections";
import { expected } from "./field-basics";
import {
  announcementSchema,
  orderSchema,
  serviceSchema,
  userSchema,
  userServiceSchema,
} from "./schema-records";
import { voucherSchema } from "./schema-voucher";

const settingsObject = z.record(z.string(), z.unknown(), { error: expected("an object") });

function list<T extends z.ZodType>(item: T, what: string) {
  return z.array(item, { error: expected(`a list of ${what}`) }).nullish();
}

/** The old storefront's one database document. */
export const documentSchema = z.object({
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

/** The legacy separate localStorage keys, each a list (or the one signed-in user). */
export const legacyKeySchemas: Record<LegacyKey, z.ZodType> = {
  users: list(userSchema, "users"),
  currentUser: userSchema.nullish(),
  services: list(serviceSchema, "services"),
  orders: list(orderSchema, "orders"),
  userServices: list(userServiceSchema, "user services"),
  tickets: list(z.unknown(), "tickets"),
};

export type RawDocument = z.infer<typeof documentSchema>;
