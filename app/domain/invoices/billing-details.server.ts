import type { Db, Tx } from "~/db/transaction";
import type { BillingDetails, BillingDetailsInput } from "./billing-details";

/** A customer's billing details as the account tab shows them (empty strings for what is not set). */
export async function getBillingDetails(db: Db | Tx, userId: string): Promise<BillingDetails> {
  const row = await db
    .selectFrom("users")
    .select(["billing_name", "billing_address", "billing_country"])
    .where("id", "=", userId)
    .executeTakeFirst();
  return {
    name: row?.billing_name ?? "",
    address: row?.billing_address ?? "",
    country: row?.billing_country ?? "",
  };
}

/**
 * The customer saves their billing details (the account tab). Documents already issued keep the details
 * they were issued with; the next invoice takes these, and its VAT follows the country.
 */
export async function saveBillingDetails(
  db: Db,
  input: Omit<BillingDetailsInput, "intent"> & { userId: string },
): Promise<{ ok: true }> {
  await db
    .updateTable("users")
    .set({
      billing_name: input.billingName || null,
      billing_address: input.billingAddress || null,
      billing_country: input.billingCountry || null,
      updated_at: new Date().toISOString(),
    })
    .where("id", "=", input.userId)
    .execute();
  return { ok: true };
}

/**
 * How many customers have no billing country (the admin's invoicing settings say so): no VAT rate applies
 * to their invoices. Admins and deleted accounts are not counted.
 */
export async function countCustomersWithoutCountry(db: Db): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("role", "=", "user")
    .where("status", "!=", "deleted")
    .where((eb) => eb.or([eb("billing_country", "is", null), eb("billing_country", "=", "")]))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
