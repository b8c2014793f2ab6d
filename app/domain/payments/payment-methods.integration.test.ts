import { expect, it } from "vitest";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import { getSettings } from "~/domain/settings/settings.server";
import { asAdmin } from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { atOnce, describeEachDatabase } from "../../../tests/support/test-database";
import { quoteTopUp, type PaymentMethodInput } from "./payment-methods";
import {
  createPaymentMethod,
  deletePaymentMethod,
  findEnabledPaymentMethod,
  findPaymentMethod,
  listEnabledPaymentMethods,
  listPaymentMethodsForAdmin,
  runPaymentMethodAction,
  seedPaymentMethods,
  setPaymentMethodEnabled,
  updatePaymentMethod,
} from "./payment-methods.server";

/** A method as the editor saves it: a dirham wallet, enabled, with English texts. */
function methodInput(change: Partial<PaymentMethodInput> = {}): PaymentMethodInput {
  return {
    names: { en: "Wafacash", fr: "", ar: "" },
    instructions: { en: "Send to 0611 111 111, reference: your code", fr: "", ar: "" },
    currency: "MAD",
    rate: 1100,
    minCoins: 1,
    maxCoins: 500,
    feeFixed: 0,
    feePercentBp: 0,
    enabled: true,
    sortOrder: 9,
    ...change,
  };
}

describeEachDatabase("payment methods", (app, dialect) => {
  async function auditOf(id: number) {
    const rows = await readRows(
      app().db,
      "audit_log",
      ["action", "actor_id", "before", "after"],
      { target_type: "payment_method", target_id: String(id) },
      "id",
    );
    return rows.map((row) => ({
      ...row,
      before: row.before === null ? null : (JSON.parse(row.before) as Record<string, unknown>),
      after: row.after === null ? null : (JSON.parse(row.after) as Record<string, unknown>),
    }));
  }

  async function builtin(code: string) {
    const method = (await listPaymentMethodsForAdmin(app().db)).find((m) => m.code === code);
    if (!method) throw new Error(`no ${code}`);
    return method;
  }

  /** Runs `work` with the site's default language set to `locale`, then puts English back. */
  async function withDefaultLocale(locale: "fr" | "ar", work: () => Promise<void>) {
    const general = (await getSettings(app().db)).general;
    await updateSettingsSection(app().db, "general", { ...general, defaultLocale: locale });
    try {
      await work();
    } finally {
      await updateSettingsSection(app().db, "general", { ...general, defaultLocale: "en" });
    }
  }

  it("seeds the five methods of the service terms and the two online ones, disabled and without instructions, once", async () => {
    const methods = await listPaymentMethodsForAdmin(app().db);
    expect(
      methods.map((m) => [m.code, m.kind, m.currency, m.rate, m.builtin, m.enabled, m.names.en]),
    ).toEqual([
      ["orange-money", "manual", "MAD", 1100, true, false, "Orange Money"],
      ["inwi-money", "manual", "MAD", 1100, true, false, "Inwi Money"],
      ["cashplus", "manual", "MAD", 1100, true, false, "cashPlus"],
      ["bank-transfer", "manual", "EUR", 100, true, false, "Bank transfer"],
      ["paypal", "manual", "EUR", 100, true, false, "PayPal"],
      ["paypal-checkout", "paypal", "EUR", 100, true, false, "PayPal or card"],
      ["youcanpay", "youcanpay", "MAD", 1100, true, false, "Card (YouCan Pay)"],
    ]);
    expect((await builtin("paypal-checkout")).names).toEqual({
      en: "PayPal or card",
      fr: "PayPal ou carte",
      ar: "باي بال أو البطاقة",
    });
    expect((await builtin("youcanpay")).names).toEqual({
      en: "Card (YouCan Pay)",
      fr: "Carte bancaire (YouCan Pay)",
      ar: "بطاقة بنكية (YouCan Pay)",
    });
    expect((await builtin("bank-transfer")).names).toEqual({
      en: "Bank transfer",
      fr: "Virement bancaire",
      ar: "تحويل بنكي",
    });
    for (const method of methods) {
      expect(method.instructions).toEqual({ en: "", fr: "", ar: "" });
      expect([method.minCoins, method.maxCoins, method.feeFixed, method.feePercentBp]).toEqual([
        1, 1000, 0, 0,
      ]);
    }
    // Customers are offered nothing until an admin writes instructions and enables a method.
    expect(await listEnabledPaymentMethods(app().db, "en")).toEqual([]);

    // The next start changes nothing, an admin's edit included.
    const { db, admin } = await asAdmin(app());
    const paypal = await builtin("paypal");
    await updatePaymentMethod(db, {
      actorId: admin,
      id: paypal.id,
      method: methodInput({
        names: { en: "PayPal (friends)", fr: "", ar: "" },
        currency: "EUR",
        rate: 100,
        enabled: false,
        sortOrder: paypal.sortOrder,
      }),
    });
    await seedPaymentMethods(db);
    const after = await listPaymentMethodsForAdmin(db);
    expect(after.filter((m) => m.builtin)).toHaveLength(7);
    expect((await builtin("paypal")).names.en).toBe("PayPal (friends)");
  });

  it("saves an edit of a built-in method, audited with what it was", async () => {
    const { db, admin } = await asAdmin(app());
    const orange = await builtin("orange-money");
    const saved = await updatePaymentMethod(db, {
      actorId: admin,
      id: orange.id,
      method: methodInput({
        names: { en: "Orange Money", fr: "Orange Money", ar: "أورنج موني" },
        instructions: { en: "Send to 0600 000 000", fr: "Envoyez au 0600 000 000", ar: "" },
        rate: 1085,
        minCoins: 5,
        maxCoins: 200,
        feeFixed: 500,
        feePercentBp: 150,
        enabled: true,
        sortOrder: orange.sortOrder,
      }),
    });
    expect(saved.ok).toBe(true);
    const stored = (await findPaymentMethod(db, orange.id))!;
    expect(stored).toMatchObject({
      code: "orange-money",
      builtin: true,
      enabled: true,
      currency: "MAD",
      rate: 1085,
      minCoins: 5,
      maxCoins: 200,
      feeFixed: 500,
      feePercentBp: 150,
    });
    expect(stored.names.ar).toBe("أورنج موني");
    const audit = await auditOf(orange.id);
    expect(audit.at(-1)).toMatchObject({
      action: "payment_method.update",
      actor_id: admin,
      before: { rate: 1100, enabled: false, code: "orange-money" },
      after: { rate: 1085, enabled: true, feePercentBp: 150 },
    });

    // What a customer is then offered, in their language, and what 10 coins cost with it.
    const offered = await listEnabledPaymentMethods(db, "fr");
    const method = offered.find((m) => m.code === "orange-money")!;
    expect(method).toMatchObject({ name: "Orange Money", instructions: "Envoyez au 0600 000 000" });
    // Arabic instructions are not written: the default language's show.
    expect((await findEnabledPaymentMethod(db, orange.id, "ar"))?.instructions).toBe(
      "Send to 0600 000 000",
    );
    // 10 × 10.85 = 108.50 MAD; fee 5.00 + 1.5% of 108.50 (1.6275, so 1.63) = 6.63; total 115.13.
    expect(quoteTopUp(method, 10)).toEqual({
      ok: true,
      quote: {
        coins: 10,
        currency: "MAD",
        creditCents: 1000,
        amount: 10_850,
        feeFixed: 500,
        feePercent: 163,
        fee: 663,
        total: 11_513,
      },
    });
    expect(quoteTopUp(method, 4)).toMatchObject({
      ok: false,
      error: "payments.errors.coinsBelowMin",
    });
  });

  it("enables an online method only while its provider is configured, without instructions, in its provider's currency", async () => {
    const { db, admin } = await asAdmin(app());
    const youcan = await builtin("youcanpay");
    const paypal = await builtin("paypal-checkout");
    const audited = (await auditOf(youcan.id)).length;
    const notConfigured = {
      ok: false,
      kind: "conflict",
      error: "payments.errors.providerNotConfigured",
      field: "enabled",
    };
    // The list's switch and the editor's save alike, while no secret is saved.
    expect(
      await setPaymentMethodEnabled(db, { actorId: admin, id: youcan.id, enabled: true }),
    ).toEqual(notConfigured);
    const terms = methodInput({
      names: youcan.names,
      instructions: { en: "", fr: "", ar: "" },
      currency: "MAD",
      rate: 1050,
      sortOrder: youcan.sortOrder,
    });
    expect(await updatePaymentMethod(db, { actorId: admin, id: youcan.id, method: terms })).toEqual(
      {
        ...notConfigured,
        kind: "invalid",
      },
    );
    // Off, its terms are saved: the rate, the bounds and the fee are the admin's.
    expect(
      await updatePaymentMethod(db, {
        actorId: admin,
        id: youcan.id,
        method: { ...terms, enabled: false },
      }),
    ).toMatchObject({ ok: true, method: { rate: 1050, maxCoins: 500, enabled: false } });
    // Its currency is the provider's.
    expect(
      await updatePaymentMethod(db, {
        actorId: admin,
        id: paypal.id,
        method: methodInput({ names: paypal.names, currency: "MAD", rate: 1100, enabled: false }),
      }),
    ).toEqual({
      ok: false,
      kind: "invalid",
      error: "payments.errors.currencyFixed",
      field: "currency",
    });
    expect((await auditOf(youcan.id)).length).toBe(audited + 1);

    // Once YouCan Pay has a secret saved, the method is switched on with no instructions at all.
    const now = new Date().toISOString();
    await db
      .insertInto("payment_providers")
      .values({
        provider: "youcanpay",
        api_url: "https://youcanpay.com/sandbox",
        secret_encrypted: "encrypted",
        secret_last4: "wxyz",
        updated_at: now,
      })
      .execute();
    try {
      expect(
        await setPaymentMethodEnabled(db, { actorId: admin, id: youcan.id, enabled: true }),
      ).toMatchObject({ ok: true, method: { enabled: true, kind: "youcanpay" } });
      expect(
        (await listEnabledPaymentMethods(db, "fr"))
          .filter((m) => m.kind !== "manual")
          .map((m) => [m.code, m.kind, m.name]),
      ).toEqual([["youcanpay", "youcanpay", "Carte bancaire (YouCan Pay)"]]);
      // PayPal's provider is still not configured.
      expect(
        await setPaymentMethodEnabled(db, { actorId: admin, id: paypal.id, enabled: true }),
      ).toEqual(notConfigured);
    } finally {
      await setPaymentMethodEnabled(db, { actorId: admin, id: youcan.id, enabled: false });
      await db.deleteFrom("payment_providers").execute();
    }
  });

  it("refuses a method without its default language's name, or enabled without its instructions", async () => {
    const { db, admin } = await asAdmin(app());
    const inwi = await builtin("inwi-money");
    const before = await auditOf(inwi.id);
    const update = (method: PaymentMethodInput) =>
      updatePaymentMethod(db, { actorId: admin, id: inwi.id, method });
    expect(await update(methodInput({ names: { en: " ", fr: "Inwi", ar: "" } }))).toEqual({
      ...refusal("invalid", "payments.errors.nameRequiredEn"),
      field: "nameEn",
    });
    expect(await update(methodInput({ instructions: { en: "", fr: "x", ar: "" } }))).toEqual({
      ...refusal("invalid", "payments.errors.instructionsRequiredEn"),
      field: "instructionsEn",
    });
    expect(await update(methodInput({ currency: "EUR", rate: 1100 }))).toEqual({
      ...refusal("invalid", "payments.errors.euroRate"),
      field: "rate",
    });
    expect(await update(methodInput({ minCoins: 10, maxCoins: 5 }))).toEqual({
      ...refusal("invalid", "payments.errors.maxBelowMin"),
      field: "maxCoins",
    });

    // With French as the site's default language, French is what is required.
    await withDefaultLocale("fr", async () => {
      expect(await update(methodInput())).toEqual({
        ...refusal("invalid", "payments.errors.nameRequiredFr"),
        field: "nameFr",
      });
      const named = methodInput({ names: { en: "", fr: "Inwi Money", ar: "" } });
      expect(await update(named)).toMatchObject(
        refusal("invalid", "payments.errors.instructionsRequiredFr"),
      );
      expect(await update({ ...named, enabled: false })).toMatchObject({ ok: true });
    });
    // Nothing refused was written.
    expect((await auditOf(inwi.id)).length).toBe(before.length + 1);
    expect(
      await updatePaymentMethod(db, { actorId: admin, id: 999_999, method: methodInput() }),
    ).toEqual(refusal("notFound", "payments.errors.notFound"));
  });

  it("switches a method on only once it has instructions, each switch audited", async () => {
    const { db, admin } = await asAdmin(app());
    const cash = await builtin("cashplus");
    const toggle = (enabled: boolean) =>
      setPaymentMethodEnabled(db, { actorId: admin, id: cash.id, enabled });
    expect(await toggle(true)).toEqual({
      ...refusal("conflict", "payments.errors.instructionsRequiredEn"),
      field: "instructionsEn",
    });
    expect((await findPaymentMethod(db, cash.id))?.enabled).toBe(false);
    expect(await auditOf(cash.id)).toEqual([]);

    await updatePaymentMethod(db, {
      actorId: admin,
      id: cash.id,
      method: methodInput({
        names: cash.names,
        instructions: { en: "Pay at any cashPlus agency to: Hostfront SARL", fr: "", ar: "" },
        enabled: false,
        sortOrder: cash.sortOrder,
      }),
    });
    expect(await toggle(true)).toMatchObject({ ok: true, method: { enabled: true } });
    expect((await listEnabledPaymentMethods(db, "en")).map((m) => m.code)).toContain("cashplus");
    // Asking for the state it has changes nothing, and writes no audit row.
    expect(await toggle(true)).toMatchObject({ ok: true });
    expect(await toggle(false)).toMatchObject({ ok: true, method: { enabled: false } });
    expect((await listEnabledPaymentMethods(db, "en")).map((m) => m.code)).not.toContain(
      "cashplus",
    );
    expect(await findEnabledPaymentMethod(db, cash.id, "en")).toBeUndefined();
    expect((await auditOf(cash.id)).map((row) => row.action)).toEqual([
      "payment_method.update",
      "payment_method.enable",
      "payment_method.disable",
    ]);
    expect(
      await setPaymentMethodEnabled(db, { actorId: admin, id: 999_999, enabled: true }),
    ).toEqual(refusal("notFound", "payments.errors.notFound"));
  });

  it("adds and deletes a custom method; a built-in one is never deleted", async () => {
    const { db, admin } = await asAdmin(app());
    const created = await createPaymentMethod(db, { actorId: admin, method: methodInput() });
    if (!created.ok) throw new Error(created.error);
    expect(created.method).toMatchObject({ code: "wafacash", builtin: false, enabled: true });
    const again = await createPaymentMethod(db, { actorId: admin, method: methodInput() });
    expect(again.ok && again.method.code).toBe("wafacash-2");
    // A name without Latin letters gets a plain code.
    await withDefaultLocale("ar", async () => {
      const arabic = { en: "", fr: "", ar: "وفاكاش" };
      const made = await createPaymentMethod(db, {
        actorId: admin,
        method: methodInput({ names: arabic, instructions: arabic }),
      });
      expect(made.ok && made.method.code).toMatch(/^method(-\d+)?$/);
    });
    // Two letters are a code.
    const short = await createPaymentMethod(db, {
      actorId: admin,
      method: methodInput({ names: { en: "PX", fr: "", ar: "" } }),
    });
    expect(short.ok && short.method.code).toBe("px");
    expect((await auditOf(created.method.id)).map((row) => row.action)).toEqual([
      "payment_method.create",
    ]);
    expect(
      await createPaymentMethod(db, {
        actorId: admin,
        method: methodInput({ names: { en: "", fr: "", ar: "" } }),
      }),
    ).toEqual({
      ...refusal("invalid", "payments.errors.nameRequiredEn"),
      field: "nameEn",
    });

    expect(await deletePaymentMethod(db, { actorId: admin, id: created.method.id })).toEqual({
      ok: true,
    });
    expect(await findPaymentMethod(db, created.method.id)).toBeUndefined();
    expect((await auditOf(created.method.id)).at(-1)).toMatchObject({
      action: "payment_method.delete",
      before: { code: "wafacash", names: { en: "Wafacash" } },
      after: null,
    });
    expect(await deletePaymentMethod(db, { actorId: admin, id: created.method.id })).toEqual(
      refusal("notFound", "payments.errors.notFound"),
    );
    const paypal = await builtin("paypal");
    expect(await deletePaymentMethod(db, { actorId: admin, id: paypal.id })).toEqual(
      refusal("conflict", "payments.errors.builtinNotDeletable"),
    );
    expect(await findPaymentMethod(db, paypal.id)).toBeDefined();
  });

  it("switches off an enabled method that lacks the instructions of a new default language", async () => {
    const { db, admin } = await asAdmin(app());
    const created = await createPaymentMethod(db, {
      actorId: admin,
      method: methodInput({ names: { en: "Barid Cash", fr: "Barid Cash", ar: "" } }),
    });
    if (!created.ok) throw new Error(created.error);
    // French becomes the default language: the method has no French instructions, and may go off.
    await withDefaultLocale("fr", async () => {
      expect(
        await setPaymentMethodEnabled(db, {
          actorId: admin,
          id: created.method.id,
          enabled: false,
        }),
      ).toMatchObject({ ok: true, method: { enabled: false } });
    });
    expect((await auditOf(created.method.id)).map((row) => row.action)).toEqual([
      "payment_method.create",
      "payment_method.disable",
    ]);
  });

  it("runs each row button of the list as what it says", async () => {
    const { db, admin } = await asAdmin(app());
    const created = await createPaymentMethod(db, {
      actorId: admin,
      method: methodInput({ names: { en: "Switch Pay", fr: "", ar: "" } }),
    });
    if (!created.ok) throw new Error(created.error);
    const id = created.method.id;
    expect(await runPaymentMethodAction(db, admin, { intent: "disable", id })).toEqual({
      ok: true,
      id,
      message: "payments.admin.disabled",
    });
    expect((await findPaymentMethod(db, id))?.enabled).toBe(false);
    expect(await runPaymentMethodAction(db, admin, { intent: "enable", id })).toEqual({
      ok: true,
      id,
      message: "payments.admin.enabled",
    });
    expect((await findPaymentMethod(db, id))?.enabled).toBe(true);
  });

  it("reads texts stored without a language, or damaged, as empty in the languages they lack", async () => {
    const db = app().db;
    const at = "2026-06-15T10:00:00.000Z";
    const stored = async (code: string, texts: { names?: string; instructions?: string }) => {
      const row = await db
        .insertInto("payment_methods")
        .values({
          code,
          currency: "MAD",
          rate: 1100,
          min_coins: 1,
          max_coins: 10,
          created_at: at,
          updated_at: at,
          ...texts,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const method = (await findPaymentMethod(db, Number(row.id)))!;
      return { names: method.names, instructions: method.instructions };
    };
    const none = { en: "", fr: "", ar: "" };
    // Written without texts: the columns' default, an empty object.
    expect(await stored("stored-bare", {})).toStrictEqual({ names: none, instructions: none });
    // A language that is not a text, and one the site does not have, are dropped.
    expect(
      await stored("stored-odd", {
        names: JSON.stringify({ en: "Cash", fr: 7, de: "Bargeld" }),
        instructions: "not JSON",
      }),
    ).toStrictEqual({ names: { en: "Cash", fr: "", ar: "" }, instructions: none });
  });

  it(atOnce(dialect, "gives two methods of one name added at once two codes"), async () => {
    const { db, admin } = await asAdmin(app());
    const names = { en: "Twin Pay", fr: "", ar: "" };
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        createPaymentMethod(db, { actorId: admin, method: methodInput({ names }) }),
      ),
    );
    const codes = results.map((result) => (result.ok ? result.method.code : result.error));
    expect(codes.sort()).toEqual(["twin-pay", "twin-pay-2", "twin-pay-3"]);
  });

  it("lets the database refuse a euro rate other than one euro and bounds the wrong way round", async () => {
    const now = new Date().toISOString();
    const row = {
      code: `check-${Date.now()}`,
      currency: "EUR",
      rate: 100,
      min_coins: 1,
      max_coins: 10,
      created_at: now,
      updated_at: now,
    };
    const insert = (change: Partial<typeof row>) =>
      app()
        .db.insertInto("payment_methods")
        .values({ ...row, ...change })
        .execute();
    await expect(insert({ rate: 1100 })).rejects.toThrow();
    await expect(insert({ min_coins: 20 })).rejects.toThrow();
    await expect(insert({ currency: "USD" })).rejects.toThrow();
    await expect(insert({ currency: "MAD", rate: 0 })).rejects.toThrow();
    await insert({ currency: "MAD", rate: 1100 });
  });
});
