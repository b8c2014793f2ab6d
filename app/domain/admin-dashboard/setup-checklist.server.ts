import { sql } from "kysely";
import type { Db } from "~/db/transaction";
import { SEED_PRODUCTS } from "~/domain/catalogue/catalogue-seed.server";
import type { Settings } from "~/domain/settings/settings";
import {
  KEPT_MAIL_COUNTED,
  TWO_FACTOR_EXPECTED_ROLES,
  setupChecklist,
  type SetupChecklist,
  type SetupFacts,
} from "./setup-checklist";

/** The audit actions of an admin's own save of a product: its price is then the admin's. */
const PRODUCT_SAVES = ["product.create", "product.update"];

/**
 * The setup checklist's counts in one statement (the dashboard is the staff's landing page), each a
 * subquery on an index or a table of a few rows: payment methods, the panel's one row, the staff
 * (users by role), products on sale, each sample plan's saves in the audit log (by target), and the
 * kept mail (by state, read no further than KEPT_MAIL_COUNTED + 1 rows).
 */
async function countSetupFacts(db: Db) {
  const row = await db
    .selectNoFrom((eb) => {
      const count = () => eb.fn.countAll<number | string>().as("n");
      const onSale = () => eb.selectFrom("products").select(count).where("status", "=", "active");
      return [
        eb
          .selectFrom("payment_methods")
          .select(count)
          .where("enabled", "=", 1)
          .as("enabledPaymentMethods"),
        eb
          .selectFrom("panel_connections")
          .select(count)
          .where("id", "=", 1)
          .where("snapshot", "is not", null)
          .as("panelAnswered"),
        eb
          .selectFrom("users")
          .select(count)
          .where("role", "=", "admin")
          .where("staff_role", "in", TWO_FACTOR_EXPECTED_ROLES)
          .where("status", "=", "active")
          .where("two_factor_enabled", "=", sql<boolean>`false`)
          .as("membersWithoutTwoFactor"),
        onSale().as("productsOnSale"),
        onSale().where("price_cents", "<=", 0).as("freeProductsOnSale"),
        onSale()
          .where((product) =>
            product.or(
              SEED_PRODUCTS.map((seed) =>
                product.and([
                  product("slug", "=", seed.slug),
                  product("price_cents", "=", seed.priceCents),
                ]),
              ),
            ),
          )
          .where((product) =>
            product.not(
              product.exists(
                product
                  .selectFrom("audit_log")
                  .select("audit_log.id")
                  .where("audit_log.target_type", "=", "product")
                  .where(
                    "audit_log.target_id",
                    "=",
                    product.cast<string>(product.ref("products.id"), "text"),
                  )
                  .where("audit_log.action", "in", PRODUCT_SAVES),
              ),
            ),
          )
          .as("sampleProductsOnSale"),
        eb
          .selectFrom(
            eb
              .selectFrom("mail_outbox")
              .select("id")
              .where("state", "=", "kept")
              .limit(KEPT_MAIL_COUNTED + 1)
              .as("kept"),
          )
          .select(count)
          .as("keptMail"),
      ];
    })
    .executeTakeFirstOrThrow();
  return {
    enabledPaymentMethods: Number(row.enabledPaymentMethods),
    panelAnswered: Number(row.panelAnswered) > 0,
    membersWithoutTwoFactor: Number(row.membersWithoutTwoFactor),
    productsOnSale: Number(row.productsOnSale),
    freeProductsOnSale: Number(row.freeProductsOnSale),
    sampleProductsOnSale: Number(row.sampleProductsOnSale),
    keptMail: Number(row.keptMail),
  };
}

/**
 * What a new shop still has to set up (setup-checklist.ts has each rule), or null once every item is
 * done. `settings` are the request's (already read); `mailEnabled` is whether SMTP_URL is set.
 */
export async function readSetupChecklist(
  db: Db,
  { settings, mailEnabled }: { settings: Settings; mailEnabled: boolean },
): Promise<SetupChecklist | null> {
  const counts = await countSetupFacts(db);
  const { sellerName, sellerAddress, sellerTaxId } = settings.invoicing;
  const facts: SetupFacts = {
    seller: { name: sellerName, address: sellerAddress, taxId: sellerTaxId },
    mailEnabled,
    // Owner and Billing move money and secrets: the list asks that both sign in with a second factor.
    twoFactorRoles: settings.security.twoFactorRoles,
    ...counts,
  };
  return setupChecklist(facts);
}
