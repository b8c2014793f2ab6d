import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SEED_PRODUCTS } from "~/domain/catalogue/catalogue-seed.server";
import { listActiveProducts } from "~/domain/catalogue/catalogue.server";
import { setProductStatus, updateProduct } from "~/domain/catalogue/catalogue-admin.server";
import { keepMailUnsent } from "~/domain/mail/outbox-mode.server";
import { readRows } from "../../../tests/support/read-column";
import { runPanelCheck, savePanelConnection } from "~/domain/provisioning/panel-connection.server";
import { saveSettingsForm } from "~/domain/settings/settings-form.server";
import { productForm } from "../../../tests/support/catalogue-fixtures";
import { startFakePanel, type FakePanel } from "../../../tests/support/fake-pterodactyl";
import { adminId, customerWithCoins } from "../../../tests/support/money-fixtures";
import { allowLocalPanel } from "../../../tests/support/panel-snapshot";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { enabledOrangeMoney } from "../../../tests/support/top-up-fixtures";
import {
  KEPT_MAIL_COUNTED,
  SETUP_ITEM_IDS,
  type SetupChecklist,
  type SetupItemId,
} from "./setup-checklist";
import { readSetupChecklist } from "./setup-checklist.server";

const openItems = (checklist: SetupChecklist | null) =>
  checklist?.items.filter((item) => !item.done).map((item) => item.id) ?? [];
const detailsOf = (checklist: SetupChecklist | null, id: SetupItemId) =>
  checklist?.items.find((item) => item.id === id)?.details;

// Each suite has a fresh seeded database: the shop as it first starts. Each step below sets up one
// thing the way an admin does and sees its item, and only it, tick.
describeEachDatabase("the setup checklist", (app) => {
  let panel: FakePanel;
  let actorId: string;
  beforeAll(async () => {
    panel = await startFakePanel();
    actorId = await adminId(app());
  });
  afterAll(async () => {
    await panel.close();
  });

  const read = async ({ mailEnabled = false } = {}) =>
    readSetupChecklist(app().db, { settings: await app().settings.get(), mailEnabled });

  /** `ids` are still open, and nothing else: the step before ticked exactly what it should. */
  const expectOpen = async (ids: readonly SetupItemId[], options?: { mailEnabled?: boolean }) => {
    const checklist = await read(options);
    expect(openItems(checklist)).toEqual(ids);
    return checklist;
  };

  it("shows a fresh shop every item open", async () => {
    const fresh = await expectOpen(SETUP_ITEM_IDS);
    expect(fresh?.done).toBe(0);
    // Every seeded plan is on sale at its sample price; the seed admin has no second factor.
    expect(detailsOf(fresh, "prices")).toEqual([
      { kind: "samplePrices", count: SEED_PRODUCTS.length },
    ]);
    // The suite starts as FIRST_START_TWO_FACTOR_ROLES=none does: no role is required.
    expect(detailsOf(fresh, "twoFactor")).toEqual([
      { kind: "twoFactorNotRequired", gap: "both" },
      { kind: "membersWithoutTwoFactor", count: 1 },
    ]);
    expect(detailsOf(fresh, "mail")).toEqual([]);
  });

  // The suite's database goes on from the fresh shop above.
  it("ticks each item once its condition holds, and only it, and is gone once all are", async () => {
    // Company details: the address alone is not enough, the tax number (ICE) too.
    const invoicing = (await app().settings.get()).invoicing;
    const saveSeller = (seller: { sellerAddress: string; sellerTaxId: string }) =>
      saveSettingsForm(app(), { intent: "invoicing", ...invoicing, ...seller, actorId });
    await saveSeller({ sellerAddress: "12 Rue Allal Ben Abdallah, Casablanca", sellerTaxId: "" });
    await expectOpen(SETUP_ITEM_IDS);
    await saveSeller({
      sellerAddress: "12 Rue Allal Ben Abdallah, Casablanca",
      sellerTaxId: "001234567000089",
    });
    let open: SetupItemId[] = ["payments", "mail", "gamePanel", "twoFactor", "prices"];
    await expectOpen(open);

    // A payment method enabled (with its instructions, which enabling asks for).
    await enabledOrangeMoney(app());
    open = ["mail", "gamePanel", "twoFactor", "prices"];
    await expectOpen(open);

    // Mail kept unsent (as in a process without SMTP_URL) is counted; SMTP_URL set ticks the item.
    keepMailUnsent(true);
    try {
      await customerWithCoins(app(), 1_000);
    } finally {
      keepMailUnsent(false);
    }
    const keptMail = (await readRows(app().db, "mail_outbox", ["id"], { state: "kept" })).length;
    expect(keptMail).toBeGreaterThan(0);
    expect(detailsOf(await read(), "mail")).toEqual([{ kind: "keptMail", count: keptMail }]);
    // The outbox is never pruned: past the limit it is "more than 1,000", without counting them all.
    const at = new Date().toISOString();
    await app()
      .db.insertInto("mail_outbox")
      .values(
        Array.from({ length: KEPT_MAIL_COUNTED }, (_, index) => ({
          unique_key: `setup-checklist:${index}`,
          kind: "coinsChanged",
          to_address: "kept@example.com",
          locale: "en",
          state: "kept",
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    expect(detailsOf(await read(), "mail")).toEqual([
      { kind: "keptMailOver", limit: KEPT_MAIL_COUNTED },
    ]);
    open = ["gamePanel", "twoFactor", "prices"];
    await expectOpen(open, { mailEnabled: true });
    const mailEnabled = true;

    // The game panel: saved is not enough, nor a check the panel refused; a check it answered is.
    await allowLocalPanel(app());
    const secret = { secret: app().env.AUTH_SECRET };
    const savePanel = (apiKey: string) =>
      savePanelConnection(app().db, { url: panel.url, apiKey, locationMap: {}, actorId }, secret);
    expect((await savePanel("ptla_wrongwrongwrongwrong")).ok).toBe(true);
    await expectOpen(["gamePanel", "twoFactor", "prices"], { mailEnabled });
    expect(await runPanelCheck(app().db, secret, new Date())).toEqual({
      ok: false,
      connected: true,
    });
    await expectOpen(["gamePanel", "twoFactor", "prices"], { mailEnabled });
    expect((await savePanel(panel.apiKey)).ok).toBe(true);
    expect(await runPanelCheck(app().db, secret, new Date())).toEqual({
      ok: true,
      connected: true,
    });
    open = ["twoFactor", "prices"];
    await expectOpen(open, { mailEnabled });

    // Two-factor: required of Owner and Billing, and every member of them has it.
    const security = (await app().settings.get()).security;
    const requireOf = (twoFactorRoles: ("owner" | "billing" | "support" | "technician")[]) =>
      saveSettingsForm(app(), { intent: "security", ...security, twoFactorRoles, actorId });
    await requireOf(["owner", "support", "technician"]);
    expect(detailsOf(await read({ mailEnabled }), "twoFactor")).toEqual([
      { kind: "twoFactorNotRequired", gap: "billing" },
      { kind: "membersWithoutTwoFactor", count: 1 },
    ]);
    await requireOf(["owner", "billing"]);
    expect(detailsOf(await read({ mailEnabled }), "twoFactor")).toEqual([
      { kind: "membersWithoutTwoFactor", count: 1 },
    ]);
    const withTwoFactor = (id: string) =>
      app()
        .db.updateTable("users")
        .set({ two_factor_enabled: sql<boolean>`true` })
        .where("id", "=", id)
        .execute();
    await withTwoFactor(actorId);
    open = ["prices"];
    await expectOpen(open, { mailEnabled });
    // A Billing member without it opens it again; a Support or Technician member does not count.
    const member = async (staffRole: string) => {
      const id = await customerWithCoins(app(), 0);
      await app()
        .db.updateTable("users")
        .set({ role: "admin", staff_role: staffRole })
        .where("id", "=", id)
        .execute();
      return id;
    };
    await member("support");
    await member("technician");
    await expectOpen(open, { mailEnabled });
    const billing = await member("billing");
    expect(detailsOf(await read({ mailEnabled }), "twoFactor")).toEqual([
      { kind: "membersWithoutTwoFactor", count: 1 },
    ]);
    await withTwoFactor(billing);
    await expectOpen(open, { mailEnabled });

    // Prices: each sample plan repriced, saved as it is, or hidden.
    const plans = await listActiveProducts(app().db);
    expect(plans).toHaveLength(SEED_PRODUCTS.length);
    const save = (plan: (typeof plans)[number], priceCents: number) =>
      updateProduct(app().db, {
        actorId,
        id: plan.id,
        product: productForm({
          name: plan.name,
          slug: plan.slug,
          type: plan.type,
          price: (priceCents / 100).toFixed(2),
        }),
      });
    const [repriced, kept, hidden, ...rest] = plans;
    expect((await save(repriced!, repriced!.priceCents + 100)).ok).toBe(true);
    expect((await save(kept!, kept!.priceCents)).ok).toBe(true);
    expect(
      (await setProductStatus(app().db, { actorId, id: hidden!.id, status: "hidden" })).ok,
    ).toBe(true);
    expect(detailsOf(await read({ mailEnabled }), "prices")).toEqual([
      { kind: "samplePrices", count: SEED_PRODUCTS.length - 3 },
    ]);
    for (const plan of rest)
      await setProductStatus(app().db, { actorId, id: plan.id, status: "hidden" });

    // A product on sale for nothing (a price written by hand: the form refuses 0) keeps it open.
    await app()
      .db.updateTable("products")
      .set({ price_cents: 0 })
      .where("id", "=", kept!.id)
      .execute();
    expect(detailsOf(await read({ mailEnabled }), "prices")).toEqual([
      { kind: "freeProducts", count: 1 },
    ]);
    await setProductStatus(app().db, { actorId, id: kept!.id, status: "hidden" });

    // Everything done: the list is gone.
    expect(await read({ mailEnabled })).toBeNull();

    // Nothing on sale at all opens it again.
    await setProductStatus(app().db, { actorId, id: repriced!.id, status: "hidden" });
    const empty = await read({ mailEnabled });
    expect(openItems(empty)).toEqual(["prices"]);
    expect(detailsOf(empty, "prices")).toEqual([{ kind: "nothingOnSale" }]);
    expect(empty?.done).toBe(SETUP_ITEM_IDS.length - 1);
  });
});
