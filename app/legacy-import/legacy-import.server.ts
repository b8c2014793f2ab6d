import { createHash, randomInt } from "node:crypto";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "~/domain/accounts/accounts";
import { generatePassword, isCommonPassword } from "~/domain/accounts/accounts.server";
import { hashPassword } from "~/domain/accounts/password-hash.server";
import { recordAudit } from "~/domain/audit/audit.server";
import { categoryOf, type ProductType } from "~/domain/catalogue/catalogue";
import { postLedgerEntry } from "~/domain/coins/coins.server";
import { addDays, DEFAULT_PLAYER_SLOTS } from "~/domain/orders/orders";
import type { Settings, SettingsSection } from "~/domain/settings/settings";
import { getSettings, updateSettingsSection } from "~/domain/settings/settings.server";
import { inTransaction, Refusal, type Db, type Tx } from "~/db/transaction";
import {
  applySetting,
  DEFAULT_VOUCHER_DAYS,
  emptyCounts,
  LEGACY_SERVICE_DAYS,
  readLegacyFile,
  slugify,
  type FileProblem,
  type ImportCollection,
  type ImportNote,
  type ImportReport,
  type ImportUser,
  type LegacyDataset,
  type SkipReason,
} from "./legacy-import";

export type ImportResult =
  { ok: true; report: ImportReport } | { ok: false; problems: FileProblem[] };

// ---------------------------------------------------------------------------------------------------
// Passwords: hashed before the transaction (Argon2id takes tens of milliseconds each).

type PasswordPlan =
  | { kind: "keep"; mustChange: false }
  | { kind: "keep"; mustChange: true; why: "short" | "common" }
  | { kind: "oneTime"; why: "admin" | "noPassword" };

/**
 * The old app stored passwords in plain text and printed the seed admin's to the browser console, so an
 * admin's old password is treated as public: it is not kept at all, and the admin gets a one-time
 * password (as `npm run admin -- create` gives). A customer keeps theirs, hashed; a short or common one
 * must be replaced at first login.
 */
export function passwordPlan(user: Pick<ImportUser, "role" | "password">): PasswordPlan {
  if (user.role === "admin") return { kind: "oneTime", why: "admin" };
  const password = user.password;
  if (password === null || password.length > MAX_PASSWORD_LENGTH)
    return { kind: "oneTime", why: "noPassword" };
  if (password.length < MIN_PASSWORD_LENGTH)
    return { kind: "keep", mustChange: true, why: "short" };
  if (isCommonPassword(password)) return { kind: "keep", mustChange: true, why: "common" };
  return { kind: "keep", mustChange: false };
}

interface Credential {
  hash: string;
  oneTimePassword: string | null;
}

async function prepareCredentials(users: ImportUser[], dryRun: boolean) {
  const credentials = new Map<string, Credential>();
  const queue = [...users];
  const worker = async () => {
    for (let user = queue.shift(); user; user = queue.shift()) {
      const plan = passwordPlan(user);
      const oneTimePassword = plan.kind === "oneTime" && !dryRun ? generatePassword() : null;
      // A dry run writes nothing that lasts, so it skips the slow hashing.
      const hash = dryRun ? "" : await hashPassword(oneTimePassword ?? user.password!);
      credentials.set(user.email, { hash, oneTimePassword });
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return credentials;
}

/** Thrown when an account appeared or went away between hashing and the transaction. */
class StaleCredentials extends Error {}

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** An id like the ones better-auth gives (32 letters and digits). */
function authId(): string {
  let id = "";
  for (let i = 0; i < 32; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}

// ---------------------------------------------------------------------------------------------------
// What is already here.

interface Mapping {
  newId: string;
  outcome: "created" | "matched";
}

interface ProductRow {
  id: number;
  slug: string;
  name: string;
  type: string;
  price_cents: number;
  position: number;
}

const mappingKey = (collection: ImportCollection, key: string) => `${collection}\u0000${key}`;
const sameName = (a: string, b: string) =>
  a.trim().replace(/\s+/g, " ").toLowerCase() === b.trim().replace(/\s+/g, " ").toLowerCase();

function chunks<T>(items: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function existingEmails(db: Db | Tx, emails: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunks(emails)) {
    const rows = await db.selectFrom("users").select("email").where("email", "in", part).execute();
    for (const row of rows) found.add(row.email);
  }
  return found;
}

async function loadMappings(db: Db | Tx): Promise<Map<string, Mapping>> {
  const rows = await db
    .selectFrom("legacy_imports")
    .select(["collection", "legacy_key", "new_id", "outcome"])
    .execute();
  return new Map(
    rows.map((row) => [
      mappingKey(row.collection as ImportCollection, row.legacy_key),
      { newId: row.new_id, outcome: row.outcome as Mapping["outcome"] },
    ]),
  );
}

/** Users that an import would create now: not imported before and no account with their email. */
async function usersToCreate(db: Db, data: LegacyDataset): Promise<ImportUser[]> {
  const mappings = await loadMappings(db);
  const taken = await existingEmails(
    db,
    data.users.map((u) => u.email),
  );
  return data.users.filter(
    (u) => !mappings.has(mappingKey("users", u.email)) && !taken.has(u.email),
  );
}

// ---------------------------------------------------------------------------------------------------
// The use-case.

/**
 * Imports a file of the old storefront (docs/legacy-import.md). The file is read and checked first; any
 * problem refuses it whole. Passwords are hashed next, outside the transaction. Then every write happens
 * in ONE transaction, with one audit entry: everything is imported, or nothing is. Each record brought in
 * is remembered in legacy_imports, so the same file run again imports nothing. A dry run does all of it
 * and rolls back.
 */
export async function importLegacyFile(
  db: Db,
  input: { text: string; fileName: string; dryRun?: boolean },
): Promise<ImportResult> {
  const read = readLegacyFile(input.text);
  if (!read.ok) return read;
  const data = read.dataset;
  const dryRun = input.dryRun ?? false;
  const credentials = await prepareCredentials(await usersToCreate(db, data), dryRun);
  const fileHash = createHash("sha256").update(input.text).digest("hex").slice(0, 12);

  try {
    return await inTransaction(db, async (trx) => {
      const report = await writeAll(trx, data, credentials, dryRun);
      const written = Object.values(report.counts).reduce((n, c) => n + c.imported + c.matched, 0);
      if (written > 0) {
        await recordAudit(trx, {
          actorId: null,
          action: "legacy.import",
          targetType: "legacy_import",
          targetId: fileHash,
          after: { file: input.fileName, counts: report.counts },
          reason: `Imported ${input.fileName}`,
        });
      }
      const result: ImportResult = { ok: true, report };
      // A dry run rolls everything back and still answers with what would have happened.
      if (dryRun) throw new Refusal(result);
      return result;
    });
  } catch (error) {
    if (!(error instanceof StaleCredentials)) throw error;
    return {
      ok: false,
      problems: [
        {
          path: "",
          message:
            "an account was created or removed in Hostfront while the import was being prepared; nothing was imported, run it again",
        },
      ],
    };
  }
}

async function writeAll(
  trx: Tx,
  data: LegacyDataset,
  credentials: Map<string, Credential>,
  dryRun: boolean,
): Promise<ImportReport> {
  const now = new Date().toISOString();
  const report: ImportReport = {
    dryRun,
    source: data.source,
    counts: emptyCounts(),
    skipped: [],
    notes: [...data.notes],
    oneTimePasswords: [],
  };
  const mappings = await loadMappings(trx);
  const count = (collection: ImportCollection, outcome: keyof ImportReport["counts"]["users"]) =>
    report.counts[collection][outcome]++;
  const skip = (collection: ImportCollection, ref: string, label: string, reason: SkipReason) => {
    report.skipped.push({ collection, ref, label, reason });
    count(collection, "skipped");
  };
  const note = (collection: ImportCollection, ref: string, label: string, n: ImportNote) =>
    report.notes.push({ collection, ref, label, note: n });
  const remember = async (
    collection: ImportCollection,
    key: string,
    newId: string | number,
    outcome: "created" | "matched",
  ) => {
    await trx
      .insertInto("legacy_imports")
      .values({
        collection,
        legacy_key: key,
        new_id: String(newId),
        outcome,
        imported_at: now,
      })
      .execute();
    mappings.set(mappingKey(collection, key), { newId: String(newId), outcome });
    count(collection, outcome === "created" ? "imported" : "matched");
  };
  const mapped = (collection: ImportCollection, key: string) => {
    const found = mappings.get(mappingKey(collection, key));
    if (found) count(collection, "already");
    return found;
  };

  for (const line of data.skipped) {
    report.skipped.push(line);
    report.counts[line.collection].skipped +=
      line.reason.code === "notSupported" ? line.reason.count : 1;
  }

  // Users ------------------------------------------------------------------------------------------
  const userIds = new Map<string, string>();
  const skippedUsers = new Map(data.skippedUserRefs);
  const taken = await existingEmails(
    trx,
    data.users.map((u) => u.email),
  );
  for (const user of data.users) {
    const done = mapped("users", user.email);
    if (done) {
      userIds.set(user.email, done.newId);
      continue;
    }
    if (taken.has(user.email)) {
      skip("users", user.ref, user.email, { code: "emailTaken" });
      skippedUsers.set(user.email, user.ref);
      continue;
    }
    const credential = credentials.get(user.email);
    if (!credential) throw new StaleCredentials();
    const plan = passwordPlan(user);
    const id = authId();
    const createdAt = user.createdAt ?? now;
    await trx
      .insertInto("users")
      .values({
        id,
        name: user.name,
        email: user.email,
        role: user.role,
        status: "active",
        coin_balance_cents: 0,
        must_change_password: plan.kind === "oneTime" || plan.mustChange ? 1 : 0,
        created_at: createdAt,
        updated_at: now,
      })
      .execute();
    // The credential account exactly as better-auth's sign-up writes it.
    await trx
      .insertInto("accounts")
      .values({
        id: authId(),
        user_id: id,
        account_id: id,
        provider_id: "credential",
        password: credential.hash,
        created_at: now,
        updated_at: now,
      })
      .execute();
    if (user.coinsCents > 0) {
      // A new account and an amount within MAX_ADJUSTMENT_CENTS: the ledger cannot refuse it.
      const balance = await postLedgerEntry(trx, {
        userId: id,
        amountCents: user.coinsCents,
        kind: "legacy_import",
        reason: "Balance imported from the old storefront",
      });
      if (balance === null) throw new Error(`The ledger refused the balance of ${user.email}`);
    }
    await remember("users", user.email, id, "created");
    userIds.set(user.email, id);
    if (user.coinsClampedFromCents !== null)
      note("users", user.ref, user.email, {
        code: "coinsClamped",
        fromCents: user.coinsClampedFromCents,
      });
    if (plan.kind === "oneTime") {
      note("users", user.ref, user.email, { code: "oneTimePassword", why: plan.why });
      if (credential.oneTimePassword)
        report.oneTimePasswords.push({ email: user.email, password: credential.oneTimePassword });
    } else if (plan.mustChange) {
      note("users", user.ref, user.email, { code: "mustChangePassword", why: plan.why });
    }
  }

  const resolveUser = (
    legacyId: string | null,
  ): { ok: true; id: string } | { ok: false; reason: SkipReason } => {
    const email = legacyId === null ? undefined : data.userEmailById.get(legacyId);
    if (!email) return { ok: false, reason: { code: "userMissing", userId: legacyId } };
    const id = userIds.get(email);
    if (id) return { ok: true, id };
    const ref = skippedUsers.get(email);
    return ref
      ? { ok: false, reason: { code: "userNotImported", userRef: ref } }
      : { ok: false, reason: { code: "userMissing", userId: legacyId } };
  };

  // Services → products ----------------------------------------------------------------------------
  const products: ProductRow[] = await trx
    .selectFrom("products")
    .select(["id", "slug", "name", "type", "price_cents", "position"])
    .execute();
  const productById = new Map(products.map((p) => [Number(p.id), p]));
  const productByServiceKey = new Map<string, ProductRow>();
  const legacyPriceByServiceKey = new Map(data.services.map((s) => [s.key, s.priceCents]));
  const findProduct = (slug: string, name: string) =>
    products.find((p) => p.slug === slug) ?? products.find((p) => sameName(p.name, name));

  for (const service of data.services) {
    const done = mapped("services", service.key);
    if (done) {
      const product = productById.get(Number(done.newId));
      if (product) productByServiceKey.set(service.key, product);
      continue;
    }
    const existing = findProduct(service.slug, service.name);
    if (existing) {
      await remember("services", service.key, existing.id, "matched");
      productByServiceKey.set(service.key, existing);
      if (existing.price_cents !== service.priceCents)
        note("services", service.ref, service.name, {
          code: "productKept",
          slug: existing.slug,
          priceCents: existing.price_cents,
          legacyPriceCents: service.priceCents,
        });
      continue;
    }
    const position =
      Math.max(-1, ...products.filter((p) => p.type === service.type).map((p) => p.position)) + 1;
    const createdAt = service.createdAt ?? now;
    const row = await trx
      .insertInto("products")
      .values({
        slug: service.slug,
        type: service.type,
        category: categoryOf(service.type),
        name: service.name,
        description: service.description,
        price_cents: service.priceCents,
        features: JSON.stringify(service.features),
        ram_gb: service.specs.ramGb,
        storage_gb: service.specs.storageGb,
        cpu_cores: service.specs.cpuCores,
        slots: service.specs.slots,
        recommended: 0,
        status: service.status,
        position,
        created_at: createdAt,
        updated_at: now,
      })
      .returning(["id", "slug", "name", "type", "price_cents", "position"])
      .executeTakeFirstOrThrow();
    const product = { ...row, id: Number(row.id) };
    products.push(product);
    productById.set(product.id, product);
    productByServiceKey.set(service.key, product);
    await remember("services", service.key, product.id, "created");
  }

  const resolveProduct = (serviceId: string | null, name: string | null) => {
    if (serviceId) {
      const product = productByServiceKey.get(serviceId);
      if (product) return product;
      const earlier = mappings.get(mappingKey("services", serviceId));
      if (earlier) return productById.get(Number(earlier.newId));
    }
    return name ? findProduct(slugify(name), name) : undefined;
  };

  // Orders: history, with no coin movement (the imported balance already reflects what was charged). --
  for (const order of data.orders) {
    const label = order.serviceName ?? `order ${order.key}`;
    if (mapped("orders", order.key)) continue;
    const user = resolveUser(order.userId);
    if (!user.ok) {
      skip("orders", order.ref, label, user.reason);
      continue;
    }
    const product = resolveProduct(order.serviceId, order.serviceName);
    if (!product) {
      skip("orders", order.ref, label, {
        code: "serviceMissing",
        serviceId: order.serviceId,
        name: order.serviceName,
      });
      continue;
    }
    const priceCents =
      order.priceCents ??
      (order.serviceId ? legacyPriceByServiceKey.get(order.serviceId) : undefined) ??
      product.price_cents;
    const type = (order.serverType ?? product.type) as ProductType;
    const createdAt = order.createdAt ?? now;
    const row = await trx
      .insertInto("orders")
      .values({
        user_id: user.id,
        product_id: product.id,
        product_name: order.serviceName ?? product.name,
        product_type: type,
        product_price_cents: priceCents,
        billing_cycle: order.billingCycle,
        location: order.location,
        ddos_protection: order.ddosProtection ? 1 : 0,
        player_slots: type === "vps" ? null : (order.playerSlots ?? DEFAULT_PLAYER_SLOTS),
        backup: order.backup,
        server_name: order.serverName,
        monthly_price_cents: priceCents,
        subtotal_cents: priceCents,
        discount_cents: 0,
        total_cents: priceCents,
        paid_with_coins: order.paidWithCoins ? 1 : 0,
        status: order.status,
        // Unique like every order's key: a second guard against bringing one order in twice.
        idempotency_key: `legacy-order:${order.key}`,
        decided_at: order.status === "pending" ? null : createdAt,
        created_at: createdAt,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await remember("orders", order.key, row.id, "created");
    if (order.unknownStatus)
      note("orders", order.ref, label, {
        code: "statusMapped",
        from: order.unknownStatus,
        to: order.status,
      });
  }

  // User services → hosting services ---------------------------------------------------------------
  for (const service of data.userServices) {
    const label = service.serviceName ?? `service ${service.key}`;
    if (mapped("userServices", service.key)) continue;
    const user = resolveUser(service.userId);
    if (!user.ok) {
      skip("userServices", service.ref, label, user.reason);
      continue;
    }
    // A hosting service may stand without a catalogue product (as an admin-added one does).
    const product = resolveProduct(service.serviceId, service.serviceName);
    const priceCents =
      service.priceCents ??
      (service.serviceId ? legacyPriceByServiceKey.get(service.serviceId) : undefined) ??
      product?.price_cents ??
      0;
    const createdAt = service.createdAt ?? now;
    const row = await trx
      .insertInto("hosting_services")
      .values({
        user_id: user.id,
        product_id: product?.id ?? null,
        name: (service.serviceName ?? product?.name ?? `Service ${service.key}`).slice(0, 100),
        server_name: "",
        type: product?.type ?? null,
        billing_cycle: "monthly",
        monthly_price_cents: priceCents,
        cycle_price_cents: priceCents,
        status: service.status,
        expires_at: service.expiresAt ?? addDays(createdAt, LEGACY_SERVICE_DAYS),
        created_at: createdAt,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await remember("userServices", service.key, row.id, "created");
    if (service.unknownStatus)
      note("userServices", service.ref, label, {
        code: "statusMapped",
        from: service.unknownStatus,
        to: service.status,
      });
  }

  // Announcements ----------------------------------------------------------------------------------
  const announcements = await trx.selectFrom("announcements").select(["id", "title"]).execute();
  for (const item of data.announcements) {
    if (mapped("announcements", item.key)) continue;
    const same = announcements.find((a) => sameName(a.title, item.title));
    if (same) {
      await remember("announcements", item.key, same.id, "matched");
      continue;
    }
    const createdAt = item.createdAt ?? now;
    const row = await trx
      .insertInto("announcements")
      .values({
        title: item.title,
        content: item.content,
        type: item.type,
        is_active: item.isActive ? 1 : 0,
        target_audience: item.targetAudience,
        created_at: createdAt,
        updated_at: now,
      })
      .returning(["id", "title"])
      .executeTakeFirstOrThrow();
    announcements.push(row);
    await remember("announcements", item.key, row.id, "created");
  }

  // Vouchers ---------------------------------------------------------------------------------------
  const codes = new Set(
    (await trx.selectFrom("vouchers").select("code").execute()).map((v) => v.code),
  );
  for (const voucher of data.vouchers) {
    if (mapped("vouchers", voucher.key)) continue;
    if (codes.has(voucher.code)) {
      skip("vouchers", voucher.ref, voucher.code, { code: "voucherCodeTaken" });
      continue;
    }
    let applicable: "all" | number[] = "all";
    if (voucher.applicableServices !== "all") {
      const ids: number[] = [];
      const dropped: string[] = [];
      for (const legacyId of voucher.applicableServices) {
        const product = resolveProduct(legacyId, null);
        if (product) ids.push(product.id);
        else dropped.push(legacyId);
      }
      applicable = [...new Set(ids)];
      if (dropped.length)
        note("vouchers", voucher.ref, voucher.code, { code: "servicesDropped", ids: dropped });
    }
    const validFrom = voucher.validFrom ?? voucher.createdAt ?? now;
    const row = await trx
      .insertInto("vouchers")
      .values({
        code: voucher.code,
        description: voucher.description,
        discount_type: voucher.discountType,
        discount_value: voucher.discountValue,
        min_purchase_cents: voucher.minPurchaseCents,
        max_uses: voucher.maxUses,
        used_count: voucher.usedCount,
        is_active: voucher.isActive ? 1 : 0,
        valid_from: validFrom,
        valid_until: voucher.validUntil ?? addDays(validFrom, DEFAULT_VOUCHER_DAYS),
        applicable_services: JSON.stringify(applicable),
        created_at: voucher.createdAt ?? now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    codes.add(voucher.code);
    await remember("vouchers", voucher.key, row.id, "created");
  }

  // Settings: each value checked by the settings schema; a bad one is skipped, never stored. --------
  const settings: Settings = await getSettings(trx);
  const changed = new Set<SettingsSection>();
  for (const setting of data.settings) {
    if (mapped("settings", setting.key)) continue;
    const section = setting.section;
    const applied =
      setting.value === null || setting.value === undefined || setting.value === ""
        ? ({ ok: false, message: "empty" } as const)
        : applySetting(settings[section], section, setting.field, setting.value);
    if (!applied.ok) {
      skip("settings", setting.ref, setting.key, {
        code: "settingInvalid",
        detail: applied.message,
      });
      continue;
    }
    (settings as Record<SettingsSection, unknown>)[section] = applied.value;
    changed.add(section);
    await remember("settings", setting.key, `${section}.${setting.field}`, "created");
  }
  for (const section of changed) await updateSettingsSection(trx, section, settings[section]);

  return report;
}
