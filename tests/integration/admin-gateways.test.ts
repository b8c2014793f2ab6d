import { expect, it } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import { listPaymentMethodsForAdmin } from "~/domain/payments/payment-methods.server";
import { readProviderConfig } from "~/domain/payments/providers/provider-config.server";
import * as gateways from "~/routes/admin/gateways";
import { registeredCustomer } from "../support/account-fixtures";
import { appFetch } from "../support/app-harness";
import { schemaSnapshot } from "../support/schema-snapshot";
import {
  contextFor,
  cookieHeader,
  postAction,
  routeArgs,
  settle,
  type ActionAnswer,
} from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

// /admin/gateways through its route module, as requests reach it: admins only, the editor's posts and
// what each answers.
describeEachDatabase("admin payment methods page", (app) => {
  let signIns = 0;
  async function cookieOf(email: string, password: string) {
    const result = await signIn(app(), { email, password }, { ip: `10.61.0.${++signIns}` });
    if (!result.ok) throw new Error("sign in failed");
    return cookieHeader(result.setCookies);
  }
  const adminCookie = () => cookieOf(TEST_ADMIN.email, TEST_ADMIN.password);
  async function customerCookie() {
    const email = `gateways${Date.now()}${signIns}@example.com`;
    await registeredCustomer(app(), { name: "Gate", email, password: "Gate-pw-73915" });
    return cookieOf(email, "Gate-pw-73915");
  }

  async function load(path: string, cookie: string) {
    return settle(async () =>
      gateways.loader(
        routeArgs({
          request: new Request(`http://localhost${path}`, { headers: { cookie } }),
          context: await contextFor(app(), { cookie }),
        }),
      ),
    );
  }
  const post = (fields: Record<string, string>, cookie: string) =>
    postAction(app(), gateways, "/admin/gateways", fields, { cookie });

  async function methodId(code: string) {
    const method = (await listPaymentMethodsForAdmin(app().db)).find((m) => m.code === code);
    return String(method!.id);
  }

  /** The editor's form for Orange Money, as an admin fills it in. */
  const orangeForm = async (change: Record<string, string> = {}) => ({
    intent: "update",
    id: await methodId("orange-money"),
    nameEn: "Orange Money",
    nameFr: "Orange Money",
    nameAr: "Orange Money",
    instructionsEn: "Send to 0600 000 000 (Hostfront SARL), reference: your code",
    instructionsFr: "",
    instructionsAr: "",
    currency: "MAD",
    rate: "10.90",
    minCoins: "5",
    maxCoins: "300",
    feeFixed: "",
    feePercent: "",
    sortOrder: "1",
    enabled: "on",
    ...change,
  });

  it("turns a customer away from the page and its posts, changing nothing", async () => {
    const cookie = await customerCookie();
    const page = (await load("/admin/gateways", cookie)) as Response;
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/");
    const before = await schemaSnapshot(app().db, { skip: ["sessions", "login_attempts"] });
    for (const fields of <Record<string, string>[]>[
      await orangeForm(),
      { intent: "enable", id: await methodId("paypal") },
      { intent: "delete", id: await methodId("paypal") },
      { intent: "provider-paypal", mode: "sandbox", publicId: "x", secret: "y", webhookId: "z" },
    ]) {
      const answer = (await post(fields, cookie)) as Response;
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toBe("/");
    }
    expect(await schemaSnapshot(app().db, { skip: ["sessions", "login_attempts"] })).toEqual(
      before,
    );
    // Nobody signed in is sent to log in.
    const anonymous = (await load("/admin/gateways", "")) as Response;
    expect(anonymous.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
  });

  it("shows the list and the editor of one method to an admin", async () => {
    const cookie = await adminCookie();
    const page = (await load("/admin/gateways", cookie)) as {
      meta: { title: string };
      methods: { code: string }[];
      editing: unknown;
      defaultLocale: string;
    };
    expect(page.meta.title).toBe("Payment Gateways");
    expect(page.methods.map((m) => m.code)).toEqual(
      expect.arrayContaining(["orange-money", "inwi-money", "cashplus", "bank-transfer", "paypal"]),
    );
    expect(page.editing).toBeUndefined();
    expect(page.defaultLocale).toBe("en");
    const id = await methodId("paypal");
    expect(await load(`/admin/gateways?edit=${id}`, cookie)).toMatchObject({
      editing: { code: "paypal" },
    });
    expect(await load("/admin/gateways?edit=new", cookie)).toMatchObject({ editing: "new" });
    expect(await load("/admin/gateways?edit=999999", cookie)).toMatchObject({ editing: null });
  });

  it("saves an edit and goes back to the list; a wrong form comes back with its errors", async () => {
    const cookie = await adminCookie();
    const id = await methodId("orange-money");
    const saved = (await post(await orangeForm(), cookie)) as Response;
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`/admin/gateways?notice=updated#method-${id}`);
    const orange = (await listPaymentMethodsForAdmin(app().db)).find((m) => m.id === Number(id))!;
    expect(orange).toMatchObject({ rate: 1090, minCoins: 5, maxCoins: 300, enabled: true });

    // The form's own refusal: each field's message and what was typed.
    const bad = (await post(
      await orangeForm({ rate: "abc", maxCoins: "2" }),
      cookie,
    )) as ActionAnswer;
    expect(bad.init?.status).toBe(400);
    expect(bad.data).toMatchObject({
      ok: false,
      intent: "save",
      message: "payments.admin.saveFailed",
      fieldErrors: {
        rate: "payments.errors.amountInvalid",
        maxCoins: "payments.errors.maxBelowMin",
      },
      values: { rate: "abc", maxCoins: "2" },
    });
    // The domain's: enabled without instructions in the default language, on that field.
    const noInstructions = (await post(
      await orangeForm({ instructionsEn: "", instructionsFr: "Envoyez au 0600" }),
      cookie,
    )) as ActionAnswer;
    expect(noInstructions.init?.status).toBe(400);
    expect(noInstructions.data).toMatchObject({
      ok: false,
      intent: "save",
      message: "payments.admin.saveFailed",
      reason: "payments.errors.instructionsRequiredEn",
      fieldErrors: { instructionsEn: "payments.errors.instructionsRequiredEn" },
      values: { instructionsFr: "Envoyez au 0600" },
    });
    expect((await listPaymentMethodsForAdmin(app().db)).find((m) => m.id === Number(id))).toEqual(
      orange,
    );
  });

  it("adds, switches and deletes a custom method; a built-in one stays", async () => {
    const cookie = await adminCookie();
    const created = (await post(
      {
        ...(await orangeForm()),
        intent: "create",
        id: "",
        nameEn: "Route Pay",
        nameFr: "",
        nameAr: "",
        currency: "EUR",
        rate: "",
        enabled: "",
      },
      cookie,
    )) as Response;
    expect(created.status).toBe(302);
    const location = created.headers.get("location")!;
    expect(location).toMatch(/^\/admin\/gateways\?notice=created#method-\d+$/);
    const id = location.split("#method-")[1]!;
    const custom = (await listPaymentMethodsForAdmin(app().db)).find((m) => m.id === Number(id));
    expect(custom).toMatchObject({ code: "route-pay", currency: "EUR", rate: 100, enabled: false });

    expect(await post({ intent: "enable", id }, cookie)).toEqual({
      ok: true,
      intent: "row",
      id,
      message: "payments.admin.enabled",
    });
    expect(await post({ intent: "disable", id }, cookie)).toMatchObject({
      message: "payments.admin.disabled",
    });
    expect(await post({ intent: "delete", id }, cookie)).toMatchObject({
      ok: true,
      message: "payments.admin.deleted",
    });
    const gone = (await post({ intent: "delete", id }, cookie)) as ActionAnswer;
    expect(gone.init?.status).toBe(404);
    expect(gone.data).toMatchObject({ ok: false, message: "payments.errors.notFound" });

    const builtin = (await post(
      { intent: "delete", id: await methodId("bank-transfer") },
      cookie,
    )) as ActionAnswer;
    expect(builtin.init?.status).toBe(409);
    expect(builtin.data).toMatchObject({
      ok: false,
      intent: "row",
      message: "payments.errors.builtinNotDeletable",
    });
    // Enabling a method without instructions is refused with why.
    const empty = (await post(
      { intent: "enable", id: await methodId("inwi-money") },
      cookie,
    )) as ActionAnswer;
    expect(empty.init?.status).toBe(409);
    expect(empty.data).toMatchObject({ message: "payments.errors.instructionsRequiredEn" });
    const unknown = (await post({ intent: "explode", id }, cookie)) as ActionAnswer;
    expect(unknown.init?.status).toBe(400);
    expect(unknown.data).toMatchObject({ message: "payments.errors.unknownAction" });
  });

  /** PayPal's form as an admin fills it in. */
  const paypalForm = (change: Record<string, string> = {}) => ({
    intent: "provider-paypal",
    mode: "sandbox",
    apiUrl: "",
    publicId: "RouteClientId",
    secret: "route-paypal-secret-5678",
    webhookId: "WH-ROUTE-1",
    ...change,
  });

  it("saves a provider's keys with a toast, and sends a refused form back with its fields' messages and no secret", async () => {
    const cookie = await adminCookie();
    await app().db.deleteFrom("payment_providers").execute();
    // The schema's refusals: each field's message, what was typed, never the secret.
    const bad = (await post(
      paypalForm({ mode: "production", publicId: "has space", secret: "typed-secret-0000" }),
      cookie,
    )) as ActionAnswer;
    expect(bad.init?.status).toBe(400);
    expect(bad.data).toEqual({
      ok: false,
      intent: "provider",
      provider: "paypal",
      message: "payments.providers.saveFailed",
      fieldErrors: {
        mode: "payments.providers.errors.modeInvalid",
        publicId: "payments.providers.errors.publicIdInvalid",
      },
      values: expect.objectContaining({ mode: "production", publicId: "has space", secret: "" }),
    });
    expect(JSON.stringify(bad.data)).not.toContain("typed-secret");
    // The domain's: on the field it belongs to.
    const local = (await post(
      paypalForm({ apiUrl: "http://127.0.0.1:9" }),
      cookie,
    )) as ActionAnswer;
    expect(local.init?.status).toBe(400);
    expect(local.data).toMatchObject({
      ok: false,
      intent: "provider",
      provider: "paypal",
      reason: "payments.providers.errors.urlLocal",
      fieldErrors: { apiUrl: "payments.providers.errors.urlLocal" },
      values: { apiUrl: "http://127.0.0.1:9", secret: "" },
    });
    expect(JSON.stringify(local.data)).not.toContain("route-paypal-secret");
    const noSecret = (await post(
      { ...paypalForm({ secret: "" }), intent: "provider-youcanpay" },
      cookie,
    )) as ActionAnswer;
    expect(noSecret.data).toMatchObject({
      provider: "youcanpay",
      fieldErrors: { secret: "payments.providers.errors.secretRequired" },
    });

    const saved = (await post(paypalForm(), cookie)) as Response;
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/admin/gateways#provider-paypal");
    expect(saved.headers.get("set-cookie")).toContain("toast.providerSaved");
    expect(
      await readProviderConfig(app().db, "paypal", { secret: app().env.AUTH_SECRET }),
    ).toMatchObject({
      ok: true,
      config: { publicId: "RouteClientId", secret: "route-paypal-secret-5678" },
    });

    // The page: the methods with their kind, each provider's section with the last four only, and the
    // refused notifications.
    await app()
      .db.insertInto("provider_notifications")
      .values({
        provider: "youcanpay",
        event_id: "evt-route-forged",
        event_type: "transaction.paid",
        body: "{}",
        outcome: "badSignature",
        received_at: new Date().toISOString(),
      })
      .execute();
    const page = await appFetch(app())("/admin/gateways", { cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const text of [
      "PayPal or card",
      "Card (YouCan Pay)",
      "YouCan Pay",
      "Online providers",
      'id="provider-paypal"',
      'id="provider-youcanpay"',
      "Saved: ••••5678. Leave empty to keep it.",
      "RouteClientId",
      "WH-ROUTE-1",
      "http://localhost:3000/hooks/payments/paypal",
      "Refused notifications",
      "transaction.paid",
      "Bad signature",
    ])
      expect(html).toContain(text);
    expect(html).not.toContain("route-paypal-secret");
    await app().db.deleteFrom("provider_notifications").execute();
    await app().db.deleteFrom("payment_providers").execute();
  });

  it("answers an unknown intent with 400 and a message", async () => {
    const cookie = await adminCookie();
    for (const intent of ["provider-stripe", "provider", ""]) {
      const answer = (await post({ intent, mode: "sandbox" }, cookie)) as ActionAnswer;
      expect(answer.init?.status).toBe(400);
      expect(answer.data).toMatchObject({ ok: false, message: "payments.errors.unknownAction" });
    }
  });
});
