import { beforeEach, expect, it } from "vitest";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import { asAdmin } from "../../../../tests/support/money-fixtures";
import { readRows } from "../../../../tests/support/read-column";
import { describeEachDatabase } from "../../../../tests/support/test-database";
import { readProviderConfig } from "./provider-config.server";
import {
  listRefusedNotifications,
  readProviderSettings,
  saveProviderSettings,
  type ProviderSettingsInput,
} from "./provider-settings.server";
import { REFUSED_NOTIFICATIONS_PAGE_SIZE } from "./provider-settings";

const SECRET = "test-secret-0123456789abcdef0123456789abcdef";
const PUBLIC_URL = "https://shop.example";

// /admin/gateways' online providers (docs/payments.md "Online providers"): saved as the game panel's
// connection is (encrypted, bound to its address, never read back), audited without the secret.
describeEachDatabase("online providers' settings", (app) => {
  async function paypal(change: Partial<ProviderSettingsInput> = {}) {
    const { db, admin } = await asAdmin(app());
    return saveProviderSettings(
      db,
      {
        provider: "paypal",
        mode: "sandbox",
        apiUrl: "",
        publicId: "AbCdClientId",
        secret: "paypal-client-secret-9876",
        webhookId: "8PT597110X687430LKGECATA",
        actorId: admin,
        ...change,
      },
      { secret: SECRET },
    );
  }
  async function youcanpay(change: Partial<ProviderSettingsInput> = {}) {
    const { db, admin } = await asAdmin(app());
    return saveProviderSettings(
      db,
      {
        provider: "youcanpay",
        mode: "sandbox",
        apiUrl: "",
        publicId: "pub_sandbox_1234",
        secret: "pri_sandbox_abcdwxyz",
        webhookId: "ignored",
        actorId: admin,
        ...change,
      },
      { secret: SECRET },
    );
  }
  const settingsOf = async (provider: "paypal" | "youcanpay") =>
    (await readProviderSettings(app().db, { publicUrl: `${PUBLIC_URL}/` })).find(
      (view) => view.provider === provider,
    )!;
  const audited = () =>
    readRows(
      app().db,
      "audit_log",
      ["actor_id", "target_type", "target_id", "before", "after"],
      { action: "payment_provider.save" },
      "id",
    );
  // Each test starts with no provider saved and no notification; the audit log only grows.
  let auditedBefore = 0;
  beforeEach(async () => {
    await app().db.deleteFrom("payment_providers").execute();
    await app().db.deleteFrom("provider_notifications").execute();
    auditedBefore = (await audited()).length;
  });
  const auditedNow = async () => (await audited()).slice(auditedBefore);
  const rowOf = (provider: string) =>
    app()
      .db.selectFrom("payment_providers")
      .selectAll()
      .where("provider", "=", provider)
      .executeTakeFirst();

  it("shows both providers unconfigured on the sandbox, with the webhook address to give each", async () => {
    expect(await readProviderSettings(app().db, { publicUrl: `${PUBLIC_URL}/` })).toEqual([
      {
        provider: "paypal",
        mode: "sandbox",
        apiUrl: "https://api-m.sandbox.paypal.com",
        publicId: "",
        secretLast4: null,
        webhookId: "",
        configured: false,
        updatedAt: null,
        webhookUrl: "https://shop.example/hooks/payments/paypal",
      },
      {
        provider: "youcanpay",
        mode: "sandbox",
        apiUrl: "https://youcanpay.com/sandbox",
        publicId: "",
        secretLast4: null,
        webhookId: "",
        configured: false,
        updatedAt: null,
        webhookUrl: "https://shop.example/hooks/payments/youcanpay",
      },
    ]);
  });

  it("saves PayPal's keys encrypted for the mode's address, shows the last four only, and audits without the secret", async () => {
    const saved = await paypal();
    expect(saved).toMatchObject({
      ok: true,
      settings: {
        apiUrl: "https://api-m.sandbox.paypal.com",
        secretLast4: "9876",
        configured: true,
      },
    });
    const view = await settingsOf("paypal");
    expect(view).toMatchObject({
      mode: "sandbox",
      apiUrl: "https://api-m.sandbox.paypal.com",
      publicId: "AbCdClientId",
      secretLast4: "9876",
      webhookId: "8PT597110X687430LKGECATA",
      configured: true,
    });
    expect(JSON.stringify(view)).not.toContain("paypal-client-secret");
    const row = (await rowOf("paypal"))!;
    expect(row.secret_encrypted).toBeTruthy();
    expect(row.secret_encrypted).not.toContain("paypal-client-secret");
    // The server's own read decrypts it, for the address it was saved for.
    expect(await readProviderConfig(app().db, "paypal", { secret: SECRET })).toEqual({
      ok: true,
      config: {
        provider: "paypal",
        mode: "sandbox",
        apiUrl: "https://api-m.sandbox.paypal.com",
        publicId: "AbCdClientId",
        secret: "paypal-client-secret-9876",
        webhookId: "8PT597110X687430LKGECATA",
      },
    });
    const audit = await auditedNow();
    expect(audit).toHaveLength(1);
    expect(audit.at(-1)).toEqual({
      actor_id: (await asAdmin(app())).admin,
      target_type: "settings",
      target_id: "paypal",
      before: "null",
      after: JSON.stringify({
        mode: "sandbox",
        apiUrl: "https://api-m.sandbox.paypal.com",
        publicId: "AbCdClientId",
        webhookId: "8PT597110X687430LKGECATA",
        secretLast4: "9876",
      }),
    });
    for (const entry of audit) expect(JSON.stringify(entry)).not.toContain("client-secret");
  });

  it("keeps the saved secret when the field is left empty, on the same address", async () => {
    await paypal();
    const kept = await paypal({ secret: null, publicId: "NewClientId" });
    expect(kept).toMatchObject({ ok: true, settings: { secretLast4: "9876" } });
    expect(await readProviderConfig(app().db, "paypal", { secret: SECRET })).toMatchObject({
      ok: true,
      config: { publicId: "NewClientId", secret: "paypal-client-secret-9876" },
    });
    expect(JSON.parse((await auditedNow()).at(-1)!.after!)).toMatchObject({
      publicId: "NewClientId",
      secretLast4: "9876",
    });
    // A new secret replaces it.
    await paypal({ secret: "another-secret-4321" });
    expect(await settingsOf("paypal")).toMatchObject({ secretLast4: "4321" });
  });

  it("refuses a new address, another mode's included, without the secret typed again", async () => {
    await youcanpay();
    const before = await rowOf("youcanpay");
    expect(await youcanpay({ secret: null, apiUrl: "https://evil.example" })).toEqual({
      ok: false,
      kind: "invalid",
      field: "secret",
      error: "payments.providers.errors.secretForNewUrl",
    });
    expect(await youcanpay({ secret: null, mode: "live" })).toMatchObject({
      ok: false,
      field: "secret",
      error: "payments.providers.errors.secretForNewUrl",
    });
    expect(await rowOf("youcanpay")).toEqual(before);
    // With the secret typed again, the live address is saved and the secret bound to it.
    expect(await youcanpay({ mode: "live", secret: "pri_live_0000zzzz" })).toMatchObject({
      ok: true,
      settings: { mode: "live", apiUrl: "https://youcanpay.com", secretLast4: "zzzz" },
    });
    expect(await readProviderConfig(app().db, "youcanpay", { secret: SECRET })).toMatchObject({
      ok: true,
      config: { apiUrl: "https://youcanpay.com", secret: "pri_live_0000zzzz", webhookId: "" },
    });
  });

  it("refuses the first save without a secret, a bad address, and PayPal without its ids, changing nothing", async () => {
    const refused = (field: string, error: string) => ({
      ok: false,
      kind: "invalid",
      field,
      error,
    });
    expect(await youcanpay({ secret: null })).toEqual(
      refused("secret", "payments.providers.errors.secretRequired"),
    );
    for (const apiUrl of [
      "ftp://files.example",
      "not an address",
      "https://a:b@api.example",
      "https://api.example/?x=1",
    ])
      expect(await youcanpay({ apiUrl })).toEqual(
        refused("apiUrl", "payments.providers.errors.urlInvalid"),
      );
    expect(await paypal({ publicId: " " })).toEqual(
      refused("publicId", "payments.providers.errors.publicIdRequired"),
    );
    expect(await paypal({ webhookId: "" })).toEqual(
      refused("webhookId", "payments.providers.errors.webhookIdRequired"),
    );
    expect(await rowOf("paypal")).toBeUndefined();
    expect(await rowOf("youcanpay")).toBeUndefined();
    expect(await auditedNow()).toEqual([]);
  });

  it("refuses an address on the local network until the setting allows it", async () => {
    for (const apiUrl of [
      "http://127.0.0.1:4010",
      "http://localhost:4010",
      "http://192.168.1.5",
      "http://169.254.169.254",
    ])
      expect(await paypal({ apiUrl })).toMatchObject({
        ok: false,
        field: "apiUrl",
        error: "payments.providers.errors.urlLocal",
      });
    expect(await rowOf("paypal")).toBeUndefined();
    await updateSettingsSection(app().db, "payments", { allowLocalNetwork: true });
    try {
      expect(await paypal({ apiUrl: "http://127.0.0.1:4010/" })).toMatchObject({
        ok: true,
        settings: { apiUrl: "http://127.0.0.1:4010" },
      });
    } finally {
      await updateSettingsSection(app().db, "payments", { allowLocalNetwork: false });
    }
  });

  it("lists the refused notifications newest first, a page at a time", async () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 28, 10, minute)).toISOString();
    const outcomes = [
      "applied",
      "duplicate",
      "queued",
      "ignored",
      "badSignature",
      "unknownPayment",
      "mismatch",
    ];
    await app()
      .db.insertInto("provider_notifications")
      .values(
        outcomes.map((outcome, index) => ({
          provider: index % 2 ? "paypal" : "youcanpay",
          event_id: `evt-${outcome}`,
          event_type: "PAYMENT.CAPTURE.COMPLETED",
          body: "{}",
          outcome,
          detail: outcome === "mismatch" ? "asked 1100 MAD, paid 1000 MAD" : null,
          received_at: at(index),
        })),
      )
      .execute();
    const first = await listRefusedNotifications(app().db, { page: 1 });
    expect(first).toEqual({
      page: 1,
      hasMore: false,
      notifications: [
        {
          id: expect.any(Number),
          provider: "youcanpay",
          eventType: "PAYMENT.CAPTURE.COMPLETED",
          outcome: "mismatch",
          detail: "asked 1100 MAD, paid 1000 MAD",
          receivedAt: expect.stringMatching(/^2026-11-28T10:06/),
        },
        expect.objectContaining({ outcome: "unknownPayment", provider: "paypal" }),
        expect.objectContaining({ outcome: "badSignature", provider: "youcanpay" }),
      ],
    });
    // A full page and one more: the next page holds the oldest.
    await app()
      .db.insertInto("provider_notifications")
      .values(
        Array.from({ length: REFUSED_NOTIFICATIONS_PAGE_SIZE }, (_, index) => ({
          provider: "paypal",
          event_id: `evt-forged-${index}`,
          event_type: "PAYMENT.CAPTURE.COMPLETED",
          body: "{}",
          outcome: "badSignature",
          received_at: at(20 + index),
        })),
      )
      .execute();
    const paged = await listRefusedNotifications(app().db, { page: 1 });
    expect(paged.notifications).toHaveLength(REFUSED_NOTIFICATIONS_PAGE_SIZE);
    expect(paged.hasMore).toBe(true);
    const second = await listRefusedNotifications(app().db, { page: 2 });
    expect(second.notifications.map((n) => n.outcome)).toEqual([
      "mismatch",
      "unknownPayment",
      "badSignature",
    ]);
    expect(second.hasMore).toBe(false);
  });
});
