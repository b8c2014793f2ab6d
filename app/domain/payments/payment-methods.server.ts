import type { Updateable } from "kysely";
import type { PaymentMethodsTable } from "~/db/schema";
import { firstFreeSlug, slugWords } from "~/domain/catalogue/catalogue-admin";
import { record } from "~/domain/events/events.server";
import { getSettings } from "~/domain/settings/settings.server";
import { requireStaffPermission, type StaffForbidden } from "~/domain/staff/staff-actor.server";
import { rowToEdit } from "~/lib/row-to-edit";
import { inTransaction, isUniqueViolation, refuse, type Db, type Tx } from "~/db/transaction";
import type { FailureKind } from "~/lib/result";
import { editorOutcome, type EditorOutcome } from "~/lib/save-actions";
import {
  EURO_RATE,
  isOnlineKind,
  ONLINE_METHOD_CURRENCY,
  PAYMENT_TEXT_LOCALES,
  paymentMethodProblem,
  textIn,
  type OfferedPaymentMethod,
  type PaymentCurrency,
  type PaymentMethod,
  type PaymentMethodAction,
  type PaymentMethodInput,
  type PaymentMethodKind,
  type PaymentMethodListQuery,
  type PaymentMethodProblem,
  type PaymentTextLocale,
  type PaymentTexts,
} from "./payment-methods";

// Payment methods (docs/payments.md): the admin's /admin/gateways and what customers are offered. A
// method's instructions say where customers send their money, so every change to a method is checked
// again here: its actor is a member of the staff whose role holds `gateways.manage`.

export type PaymentMethodRefusal =
  | PaymentMethodProblem
  | "payments.errors.notFound"
  | "payments.errors.builtinNotDeletable"
  | "payments.errors.methodInUse"
  | "payments.errors.providerNotConfigured";

/**
 * A refusal names the form field it belongs to when it is one field's (a name, the instructions); or the
 * actor is no member of the staff whose role manages payment methods (`gateways.manage`).
 */
type Refused =
  { ok: false; kind: FailureKind; error: PaymentMethodRefusal; field?: string } | StaffForbidden;

export type PaymentMethodResult = { ok: true; method: PaymentMethod } | Refused;

/**
 * The five methods of the service terms (spec, /service-terms): dirhams for the Moroccan wallets, euros
 * for a bank transfer and PayPal (sent by hand to an address, no PayPal API). Disabled, with no
 * instructions: nobody can be told where to send money until an admin writes it, checks the rate (11.00
 * MAD a coin is a starting point) and enables them. Then the two online ones (ADR 55): PayPal Checkout in
 * euros and YouCan Pay's card page in dirhams, disabled until their provider is configured and an admin
 * enables them.
 */
export const BUILTIN_PAYMENT_METHODS: readonly {
  code: string;
  kind: PaymentMethodKind;
  currency: PaymentCurrency;
  rate: number;
  names: PaymentTexts;
}[] = [
  builtinMethod("orange-money", "MAD", 1100, "Orange Money"),
  builtinMethod("inwi-money", "MAD", 1100, "Inwi Money"),
  builtinMethod("cashplus", "MAD", 1100, "cashPlus"),
  builtinMethod(
    "bank-transfer",
    "EUR",
    EURO_RATE,
    "Bank transfer",
    "Virement bancaire",
    "تحويل بنكي",
  ),
  builtinMethod("paypal", "EUR", EURO_RATE, "PayPal"),
  {
    ...builtinMethod(
      "paypal-checkout",
      ONLINE_METHOD_CURRENCY.paypal,
      EURO_RATE,
      "PayPal or card",
      "PayPal ou carte",
      "باي بال أو البطاقة",
    ),
    kind: "paypal",
  },
  {
    ...builtinMethod(
      "youcanpay",
      ONLINE_METHOD_CURRENCY.youcanpay,
      1100,
      "Card (YouCan Pay)",
      "Carte bancaire (YouCan Pay)",
      "بطاقة بنكية (YouCan Pay)",
    ),
    kind: "youcanpay",
  },
];

/** A built-in method; a brand's name is the same in every language unless French and Arabic are given. */
function builtinMethod(
  code: string,
  currency: PaymentCurrency,
  rate: number,
  en: string,
  fr = en,
  ar = en,
) {
  return { code, kind: "manual" as PaymentMethodKind, currency, rate, names: { en, fr, ar } };
}

const EMPTY_TEXTS: PaymentTexts = { en: "", fr: "", ar: "" };

/**
 * Writes the built-in methods that are missing, at every start (prepareDatabase); never touches one that
 * exists. Built-in methods cannot be deleted, so this only ever fills a new database (or one from before
 * migration 0033).
 */
export async function seedPaymentMethods(db: Db): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto("payment_methods")
    .values(
      BUILTIN_PAYMENT_METHODS.map((method, index) => ({
        code: method.code,
        kind: method.kind,
        builtin: 1,
        enabled: 0,
        currency: method.currency,
        rate: method.rate,
        min_coins: 1,
        max_coins: 1000,
        fee_fixed: 0,
        fee_percent_bp: 0,
        names: JSON.stringify(method.names),
        instructions: JSON.stringify(EMPTY_TEXTS),
        sort_order: index + 1,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.column("code").doNothing())
    .execute();
}

/** A JSON object of texts per language as stored; anything else in it is dropped, a missing one is "". */
export function textsOf(json: string): PaymentTexts {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = null;
  }
  const record = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
  const texts = { ...EMPTY_TEXTS };
  for (const locale of PAYMENT_TEXT_LOCALES) {
    const text = record[locale];
    if (typeof text === "string") texts[locale] = text;
  }
  return texts;
}

function methods(db: Db | Tx) {
  return db
    .selectFrom("payment_methods")
    .select([
      "id",
      "code",
      "kind",
      "builtin",
      "enabled",
      "currency",
      "rate",
      "min_coins",
      "max_coins",
      "fee_fixed",
      "fee_percent_bp",
      "names",
      "instructions",
      "sort_order",
      "created_at",
      "updated_at",
    ])
    .orderBy("sort_order")
    .orderBy("id");
}

type MethodRow = Awaited<ReturnType<ReturnType<typeof methods>["executeTakeFirstOrThrow"]>>;

function toMethod(row: MethodRow): PaymentMethod {
  return {
    id: Number(row.id),
    code: row.code,
    // A CHECK keeps it one of the three.
    kind: row.kind as PaymentMethodKind,
    builtin: row.builtin === 1,
    enabled: row.enabled === 1,
    // A CHECK keeps it one of the two.
    currency: row.currency as PaymentCurrency,
    rate: row.rate,
    minCoins: row.min_coins,
    maxCoins: row.max_coins,
    feeFixed: row.fee_fixed,
    feePercentBp: row.fee_percent_bp,
    names: textsOf(row.names),
    instructions: textsOf(row.instructions),
    sortOrder: row.sort_order,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Every method, disabled ones too, in the order customers see them. */
export async function listPaymentMethodsForAdmin(db: Db): Promise<PaymentMethod[]> {
  // A short list the admins keep; the cap only guards the page against a runaway table.
  return (await methods(db).limit(500).execute()).map(toMethod);
}

export async function findPaymentMethod(
  db: Db | Tx,
  id: number,
): Promise<PaymentMethod | undefined> {
  const row = await methods(db).where("id", "=", id).executeTakeFirst();
  return row ? toMethod(row) : undefined;
}

function offered(
  method: PaymentMethod,
  locale: string,
  defaultLocale: PaymentTextLocale,
): OfferedPaymentMethod {
  return {
    id: method.id,
    code: method.code,
    kind: method.kind,
    name: textIn(method.names, locale, defaultLocale),
    instructions: textIn(method.instructions, locale, defaultLocale),
    currency: method.currency,
    rate: method.rate,
    minCoins: method.minCoins,
    maxCoins: method.maxCoins,
    feeFixed: method.feeFixed,
    feePercentBp: method.feePercentBp,
  };
}

async function defaultLocaleOf(db: Db | Tx): Promise<PaymentTextLocale> {
  return (await getSettings(db)).general.defaultLocale;
}

/**
 * The enabled methods a customer may pay with, in order, each with its name and instructions in
 * `locale` (else the site's default language, else English: textIn).
 */
export async function listEnabledPaymentMethods(
  db: Db | Tx,
  locale: string,
): Promise<OfferedPaymentMethod[]> {
  const [rows, defaultLocale] = await Promise.all([
    methods(db).where("enabled", "=", 1).limit(500).execute(),
    defaultLocaleOf(db),
  ]);
  return rows.map((row) => offered(toMethod(row), locale, defaultLocale));
}

/**
 * Whether a customer can buy coins here with some method (one is enabled): the site shell asks it on
 * every signed-in page (the coin dialog and every "Add coins" follow it), so it reads one id at most
 * from a table of a handful of rows, always fresh, rather than a cache to keep in step across
 * processes.
 */
export async function anyPaymentMethodEnabled(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom("payment_methods")
    .select("id")
    .where("enabled", "=", 1)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * One enabled method as a customer is offered it, or undefined when there is no such method or it is
 * disabled (a top-up asked with it is refused). Takes a transaction too, so a top-up reads the method
 * it quotes in its own.
 */
export async function findEnabledPaymentMethod(
  db: Db | Tx,
  id: number,
  locale: string,
): Promise<OfferedPaymentMethod | undefined> {
  const method = await findPaymentMethod(db, id);
  if (!method?.enabled) return undefined;
  return offered(method, locale, await defaultLocaleOf(db));
}

function columnsOf(input: PaymentMethodInput) {
  return {
    enabled: input.enabled ? 1 : 0,
    currency: input.currency,
    rate: input.rate,
    min_coins: input.minCoins,
    max_coins: input.maxCoins,
    fee_fixed: input.feeFixed,
    fee_percent_bp: input.feePercentBp,
    names: JSON.stringify(input.names),
    instructions: JSON.stringify(input.instructions),
    sort_order: input.sortOrder,
  };
}

/** A method that breaks a rule (paymentMethodProblem) refused as `kind`, naming the field; else null. */
function refusalOf(
  input: PaymentMethodInput,
  defaultLocale: PaymentTextLocale,
  kind: FailureKind,
  methodKind: PaymentMethodKind = "manual",
): Refused | null {
  const problem = paymentMethodProblem(input, defaultLocale, methodKind);
  return problem ? { ok: false, kind, error: problem.error, field: problem.field } : null;
}

/**
 * Step: an online method is enabled only while its provider has a secret saved (/admin/gateways'
 * provider sections): a customer would otherwise be sent to a checkout that cannot start. Null when
 * `method` may be on.
 */
async function providerRefusal(
  trx: Tx,
  method: { kind: PaymentMethodKind; enabled: boolean },
  kind: FailureKind,
): Promise<Refused | null> {
  if (!method.enabled || !isOnlineKind(method.kind)) return null;
  const configured = await trx
    .selectFrom("payment_providers")
    .select("provider")
    .where("provider", "=", method.kind)
    .where("secret_encrypted", "is not", null)
    .executeTakeFirst();
  if (configured) return null;
  return { ok: false, kind, error: "payments.errors.providerNotConfigured", field: "enabled" };
}

/** The method as it now stands, in the transaction that changed it. */
async function methodNow(trx: Tx, id: number): Promise<PaymentMethod> {
  return (await findPaymentMethod(trx, id))!;
}

/** Step: the method the admin acts on, or a notFound refusal. */
async function methodOrRefuse(trx: Tx, id: number): Promise<PaymentMethod> {
  const method = await findPaymentMethod(trx, id);
  if (!method) refuse<PaymentMethodResult>("notFound", "payments.errors.notFound");
  return method;
}

/**
 * Step: writes `columns` on a method, stamped, and records the change by `actorId` as `type`: saved in
 * its form, or switched on or off from the list.
 */
async function changeMethod(
  trx: Tx,
  before: PaymentMethod,
  columns: Updateable<PaymentMethodsTable>,
  event: { type: "paymentMethod.saved" | "paymentMethod.switched"; actorId: string },
): Promise<PaymentMethodResult> {
  await trx
    .updateTable("payment_methods")
    .set({ ...columns, updated_at: new Date().toISOString() })
    .where("id", "=", before.id)
    .execute();
  const method = await methodNow(trx, before.id);
  await record(trx, { ...event, before, after: method });
  return { ok: true, method };
}

/** A code for a new method: its name's words, or the first of name-2, name-3… that is free. */
async function freeCodeFor(trx: Tx, input: PaymentMethodInput, locale: PaymentTextLocale) {
  const words = slugWords(textIn(input.names, locale, locale));
  return firstFreeSlug(words.length >= 2 ? words : "method", async (code) => {
    const taken = await trx
      .selectFrom("payment_methods")
      .select("id")
      .where("code", "=", code)
      .executeTakeFirst();
    return Boolean(taken);
  });
}

/**
 * Adds a custom manual method (the admin's own: "send to this address"), with a code made from its
 * name; recorded as saved in the same transaction.
 */
export async function createPaymentMethod(
  db: Db,
  input: { actorId: string; method: PaymentMethodInput },
): Promise<PaymentMethodResult> {
  // Two admins adding methods of the same name at once: the second's code was taken between its look
  // and its insert, and running it again finds the next free one.
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(db, async (trx) => {
        await requireStaffPermission(trx, input.actorId, "gateways.manage");
        const defaultLocale = await defaultLocaleOf(trx);
        const refused = refusalOf(input.method, defaultLocale, "invalid");
        if (refused) return refused;
        const now = new Date().toISOString();
        const row = await trx
          .insertInto("payment_methods")
          .values({
            ...columnsOf(input.method),
            code: await freeCodeFor(trx, input.method, defaultLocale),
            builtin: 0,
            created_at: now,
            updated_at: now,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        const method = await methodNow(trx, Number(row.id));
        await record(trx, { type: "paymentMethod.saved", actorId: input.actorId, after: method });
        return { ok: true as const, method };
      });
    } catch (error) {
      if (attempt >= 3 || !isUniqueViolation(error)) throw error;
    }
  }
}

/**
 * Changes a method: its names, instructions, currency, rate, bounds, fee, place and whether it is on.
 * A built-in method keeps its code; an online one its kind and its provider's currency, and it is on
 * only while its provider is configured. A top-up already asked keeps the amounts it was quoted.
 */
export async function updatePaymentMethod(
  db: Db,
  input: { actorId: string; id: number; method: PaymentMethodInput },
): Promise<PaymentMethodResult> {
  return inTransaction(db, async (trx) => {
    await requireStaffPermission(trx, input.actorId, "gateways.manage");
    const before = await methodOrRefuse(trx, input.id);
    const refused =
      refusalOf(input.method, await defaultLocaleOf(trx), "invalid", before.kind) ??
      (await providerRefusal(trx, { kind: before.kind, enabled: input.method.enabled }, "invalid"));
    if (refused) return refused;
    return changeMethod(trx, before, columnsOf(input.method), {
      type: "paymentMethod.saved",
      actorId: input.actorId,
    });
  });
}

/**
 * Switches a method on or off (the list's button). On needs what a save needs: a manual method without
 * instructions in the site's default language, or an online one whose provider is not configured, stays
 * off, and says why. Asking for the state it has
 * changes nothing.
 */
export async function setPaymentMethodEnabled(
  db: Db,
  input: { actorId: string; id: number; enabled: boolean },
): Promise<PaymentMethodResult> {
  return inTransaction(db, async (trx) => {
    await requireStaffPermission(trx, input.actorId, "gateways.manage");
    const before = await methodOrRefuse(trx, input.id);
    if (before.enabled === input.enabled) return { ok: true as const, method: before };
    if (input.enabled) {
      const refused =
        refusalOf(
          { ...before, enabled: true },
          await defaultLocaleOf(trx),
          "conflict",
          before.kind,
        ) ?? (await providerRefusal(trx, { kind: before.kind, enabled: true }, "conflict"));
      if (refused) return refused;
    }
    return changeMethod(
      trx,
      before,
      { enabled: input.enabled ? 1 : 0 },
      { type: "paymentMethod.switched", actorId: input.actorId },
    );
  });
}

export type DeletePaymentMethodResult = { ok: true } | Refused;

/**
 * Deletes a custom method for good; a built-in one can only be disabled, and so can one that a top-up
 * request names (the request keeps its method: what was paid with what).
 */
export async function deletePaymentMethod(
  db: Db,
  input: { actorId: string; id: number },
): Promise<DeletePaymentMethodResult> {
  return inTransaction(db, async (trx) => {
    await requireStaffPermission(trx, input.actorId, "gateways.manage");
    const method = await methodOrRefuse(trx, input.id);
    if (method.builtin)
      refuse<DeletePaymentMethodResult>("conflict", "payments.errors.builtinNotDeletable");
    const used = await trx
      .selectFrom("top_up_requests")
      .select("id")
      .where("payment_method_id", "=", method.id)
      .limit(1)
      .executeTakeFirst();
    if (used) refuse<DeletePaymentMethodResult>("conflict", "payments.errors.methodInUse");
    await trx.deleteFrom("payment_methods").where("id", "=", method.id).execute();
    await record(trx, { type: "paymentMethod.deleted", actorId: input.actorId, method });
    return { ok: true as const };
  });
}

/**
 * What /admin/gateways shows: every method, the one whose form is open ("new" for an empty one, null
 * when the asked one does not exist) and the site's default language (the editor marks its fields).
 */
export async function loadPaymentMethodsPage(db: Db, query: PaymentMethodListQuery) {
  const [list, editing, defaultLocale] = await Promise.all([
    listPaymentMethodsForAdmin(db),
    rowToEdit(query.edit, (id) => findPaymentMethod(db, id)),
    defaultLocaleOf(db),
  ]);
  return { methods: list, editing, defaultLocale };
}

// What each of /admin/gateways' actions says when it worked (payments keys, written out).
const ACTION_MESSAGES = {
  create: "payments.admin.created",
  update: "payments.admin.updated",
  enable: "payments.admin.enabled",
  disable: "payments.admin.disabled",
  delete: "payments.admin.deleted",
} as const satisfies Record<PaymentMethodAction["intent"], string>;

/** What a post to /admin/gateways did: the method it saved or acted on and what to say, or why not. */
export type PaymentMethodOutcome = EditorOutcome<typeof ACTION_MESSAGES, Refused>;

/** /admin/gateways' one action: a save (create, update) or a row's button (enable, disable, delete). */
export async function runPaymentMethodAction(
  db: Db,
  actorId: string,
  action: PaymentMethodAction,
): Promise<PaymentMethodOutcome> {
  if (action.intent === "create") {
    const created = await createPaymentMethod(db, { actorId, method: action.method });
    return editorOutcome(created, (saved) => saved.method.id, ACTION_MESSAGES.create);
  }
  const result =
    action.intent === "update"
      ? await updatePaymentMethod(db, { actorId, id: action.id, method: action.method })
      : action.intent === "delete"
        ? await deletePaymentMethod(db, { actorId, id: action.id })
        : await setPaymentMethodEnabled(db, {
            actorId,
            id: action.id,
            enabled: action.intent === "enable",
          });
  return editorOutcome(result, action.id, ACTION_MESSAGES[action.intent]);
}
