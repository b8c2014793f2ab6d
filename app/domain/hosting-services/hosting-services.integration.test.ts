import { beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context.server";
import { BILLING_CYCLE_IDS, cycleEnd, quote, type BillingCycle } from "~/domain/orders/orders";
import { registeredCustomer } from "../../../tests/support/account-fixtures";
import {
  adminId,
  approvedOrder,
  asAdmin,
  balanceOf,
  customerWithCoins,
  customerWithRunningService,
  expectLedgerIntact,
  productId,
  renewWithNewKey,
} from "../../../tests/support/money-fixtures";
import { heldTransaction, untilWaitingOnALock } from "../../../tests/support/held-transaction";
import { readRow, readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { atOnce, describeEachDatabase } from "../../../tests/support/test-database";
import { inTransaction } from "~/db/transaction";
import { switchAutoRenew } from "./auto-renew.server";
import { editServiceSchema } from "./hosting-services.schemas";
import {
  adminAddService,
  changeServiceStatus,
  deleteService,
  editServiceByAdmin,
} from "./admin-changes.server";
import { staffMember } from "../../../tests/support/staff-members";
import { listServicesForAdmin } from "./admin-list.server";
import { setAutoRenew } from "./customer-services.server";
import { renewService } from "./renewal.server";

const DAY = 86_400_000;

async function added(
  app: AppServices,
  input: Partial<Parameters<typeof adminAddService>[1]> & { userId: string },
) {
  const result = await adminAddService(app.db, {
    actorId: await adminId(app),
    name: "Hand-made",
    billingCycle: "monthly",
    ...input,
  });
  if (!result.ok) throw new Error(result.error);
  return result.service;
}

describeEachDatabase("admin-added services", (app, dialect) => {
  for (const cycle of BILLING_CYCLE_IDS) {
    it(`prices and terms a ${cycle} service as an order of that plan and cycle, and renews at that price`, async () => {
      const product = await productId(app(), "samp-premium");
      const buyer = await customerWithCoins(app(), 100_000);
      const { placed, approved } = await approvedOrder(app(), buyer, {
        productId: product,
        billingCycle: cycle,
      });
      const customer = await customerWithCoins(app(), 100_000);
      // Blank price: the product's; typed price: that monthly price. Both as the order.
      for (const priceCents of [undefined, placed.monthlyPriceCents]) {
        const service = await added(app(), {
          userId: customer,
          productId: product,
          priceCents,
          billingCycle: cycle,
        });
        expect(service.cyclePriceCents).toBe(placed.subtotalCents);
        expect(service.monthlyPriceCents).toBe(placed.monthlyPriceCents);
        expect(service.cyclePriceCents).toBe(
          quote({ productPriceCents: 450, cycle, backup: "choliba" }).subtotalCents,
        );
        // The term is the cycle's calendar months, to the same day (a month's last day when shorter).
        expect(service.expiresAt).toBe(cycleEnd(service.createdAt, cycle));
        const orderService = await readRow(
          app().db,
          "hosting_services",
          ["cycle_price_cents", "expires_at", "created_at"],
          { id: approved.hostingServiceId! },
        );
        expect(orderService.cycle_price_cents).toBe(service.cyclePriceCents);
        expect(orderService.expires_at).toBe(cycleEnd(orderService.created_at, cycle));

        const before = await balanceOf(app(), customer);
        const renewal = await renewWithNewKey(app(), customer, service.id);
        if (!renewal.ok) throw new Error(renewal.error);
        expect(before - (await balanceOf(app(), customer))).toBe(placed.subtotalCents);
        expect(renewal.service.expiresAt).toBe(cycleEnd(service.expiresAt, cycle));
      }
      await expectLedgerIntact(app());
    });
  }

  it(
    atOnce(
      dialect,
      "renews a service several times at once: every charge adds its own term, none is lost",
    ),
    async () => {
      const { user: customer, serviceId } = await customerWithRunningService(app(), 100_000);
      const { expires_at: start, cycle_price_cents: price } = await readRow(
        app().db,
        "hosting_services",
        ["expires_at", "cycle_price_cents"],
        { id: serviceId },
      );
      const before = await balanceOf(app(), customer);
      // Six renewals from six forms at once (on PostgreSQL, on the pool's parallel connections): each
      // either renews from where the last one left the service, or is refused and charges nothing.
      const results = await Promise.all(
        Array.from({ length: 6 }, () => renewWithNewKey(app(), customer, serviceId)),
      );
      const renewed = results.filter((result) => result.ok).length;
      expect(renewed).toBeGreaterThan(0);
      for (const result of results)
        if (!result.ok) expect(result).toEqual(refusal("conflict", "services.errors.cannotRenew"));
      let expected = start;
      for (let i = 0; i < renewed; i++) expected = cycleEnd(new Date(expected), "monthly");
      const { expires_at: after } = await readRow(app().db, "hosting_services", ["expires_at"], {
        id: serviceId,
      });
      expect(Date.parse(after)).toBe(Date.parse(expected));
      expect(await balanceOf(app(), customer)).toBe(before - renewed * price);
      await expectLedgerIntact(app());
    },
  );

  // Only PostgreSQL runs a renewal beside an admin's change (SQLite takes one writer at a time, from
  // the renewal's read to its commit).
  if (dialect === "postgres")
    it("leaves an admin's suspension made while a renewal of the expired service was on its way", async () => {
      const { user: customer, serviceId } = await customerWithRunningService(app(), 100_000);
      const now = Date.now();
      await app()
        .db.updateTable("hosting_services")
        .set({
          status: "suspended",
          suspension_reason: "expired",
          suspended_at: new Date(now - DAY).toISOString(),
          expires_at: new Date(now - 3 * DAY).toISOString(),
        })
        .where("id", "=", serviceId)
        .execute();
      const before = await balanceOf(app(), customer);
      // The admin reactivated it and suspended it again, for their own reason: the row still says
      // "suspended" with the same expiry, and their transaction commits after the renewal has read it.
      const admin = await heldTransaction(app().db, (trx) =>
        trx
          .updateTable("hosting_services")
          .set({ suspension_reason: "admin", suspended_at: new Date(now).toISOString() })
          .where("id", "=", serviceId)
          .execute(),
      );
      const renewing = renewWithNewKey(app(), customer, serviceId);
      // The renewal waits for the admin's row lock before the admin commits.
      await untilWaitingOnALock(app().db);
      await admin.commit();
      expect(await renewing).toEqual(refusal("conflict", "services.errors.cannotRenew"));
      expect(
        await readRow(app().db, "hosting_services", ["status", "suspension_reason"], {
          id: serviceId,
        }),
      ).toEqual({ status: "suspended", suspension_reason: "admin" });
      expect(await balanceOf(app(), customer)).toBe(before);
    });

  it("renews automatically only while the service's switch is on, read when it renews", async () => {
    // Ordered with the form's box left unticked: the switch is off.
    const { user: customer, serviceId } = await customerWithRunningService(app(), 100_000);
    const before = await balanceOf(app(), customer);
    // A run that planned it while the switch was on, reaching it after a refund turned it off.
    const automatic = () =>
      renewService(app().db, {
        userId: customer,
        serviceId,
        idempotencyKey: `test:auto:${serviceId}:${Math.random()}`,
        automatic: true,
      });
    expect(await automatic()).toEqual(refusal("conflict", "services.errors.cannotRenew"));
    expect(await balanceOf(app(), customer)).toBe(before);
    await setAutoRenew(app().db, { userId: customer, serviceId, autoRenew: true });
    expect((await automatic()).ok).toBe(true);
  });

  it("switches the automatic renewal of the customer's own service only when it is not so already", async () => {
    const { user: customer, serviceId } = await customerWithRunningService(app(), 100_000);
    const other = await customerWithCoins(app(), 0);
    const switchIt = (input: Omit<Parameters<typeof switchAutoRenew>[1], "serviceId">) =>
      inTransaction(app().db, (trx) => switchAutoRenew(trx, { serviceId, ...input }));
    const switchOf = async () =>
      Number(
        (await readRow(app().db, "hosting_services", ["auto_renew"], { id: serviceId })).auto_renew,
      );
    expect(await switchOf()).toBe(0);
    expect(await switchIt({ userId: other, on: true })).toBeNull();
    expect(await switchOf()).toBe(0);
    expect(await switchIt({ userId: customer, on: true })).toMatchObject({
      id: serviceId,
      auto_renew: 1,
    });
    expect(await switchIt({ userId: customer, on: true })).toBeNull();
    expect(await switchOf()).toBe(1);
    // Terminated: a refund leaves its switch alone; the customer's own switch still turns.
    const { db, admin } = await asAdmin(app());
    expect(
      (await changeServiceStatus(db, { actorId: admin, serviceId, action: "terminate" })).ok,
    ).toBe(true);
    expect(await switchIt({ userId: customer, on: false, exceptTerminated: true })).toBeNull();
    expect(await switchOf()).toBe(1);
    expect(await switchIt({ userId: customer, on: false })).toMatchObject({ auto_renew: 0 });
    expect(await switchOf()).toBe(0);
  });

  it("names the service in its notices and mail by its plan and its server, as the dashboard shows it", async () => {
    const customer = await customerWithCoins(app(), 100_000);
    const { approved } = await approvedOrder(app(), customer, {
      productId: await productId(app(), "samp-starter"),
      serverName: "Karim RP",
      autoRenew: "on",
    });
    const serviceId = approved.hostingServiceId!;
    const label = "SAMP Starter (Karim RP)";
    const renewed = await renewService(app().db, {
      userId: customer,
      serviceId,
      idempotencyKey: `test:auto:${serviceId}:label`,
      automatic: true,
    });
    expect(renewed.ok).toBe(true);
    const { db, admin } = await asAdmin(app());
    expect(
      (await changeServiceStatus(db, { actorId: admin, serviceId, action: "suspend" })).ok,
    ).toBe(true);
    // What the customer was told of the service (not of the order or the coins that came before).
    const named = async (table: "notifications" | "mail_outbox") =>
      (await readRows(db, table, ["kind", "params"], { user_id: customer }, "id"))
        .filter((row) => row.kind.startsWith("service"))
        .map((row) => [row.kind, (JSON.parse(row.params) as { service?: string }).service]);
    expect(await named("notifications")).toEqual([
      ["service_auto_renewed", label],
      ["service_suspended", label],
    ]);
    expect(await named("mail_outbox")).toEqual([
      ["serviceRenewed", label],
      ["serviceSuspended", label],
    ]);
    // The ledger's entry is a record of the plan bought: it keeps the plan's name.
    const charge = await readRow(db, "coin_ledger", ["reason_params"], {
      user_id: customer,
      kind: "renewal",
    });
    expect(JSON.parse(charge.reason_params!)).toEqual({ service: "SAMP Starter" });
  });

  it("an annual service at a typed price takes the 15% discount (12 × €10.00 → €102.00)", async () => {
    const customer = await customerWithCoins(app(), 0);
    const service = await added(app(), {
      userId: customer,
      priceCents: 1000,
      billingCycle: "annual",
    });
    expect(service).toMatchObject({ monthlyPriceCents: 1000, cyclePriceCents: 10_200 });
  });
});

describeEachDatabase("the admin services list", (app) => {
  // A word only this suite's services and customers carry, so the list's other rows never match.
  const tag = `zq${Date.now().toString(36)}`;
  const ids: Record<string, number> = {};
  const now = Date.now();
  let nina: string;
  let omar: string;

  const list = (query: Parameters<typeof listServicesForAdmin>[1]) =>
    listServicesForAdmin(app().db, query);
  const idsOf = (result: { services: { id: number }[] }) => result.services.map((s) => s.id);

  beforeAll(async () => {
    nina = await registeredCustomer(app(), {
      name: `Nina ${tag}`,
      email: `nina.${tag}@example.test`,
      password: "Nina-pw-88421",
    });
    omar = await registeredCustomer(app(), {
      name: `Omar Other`,
      email: `omar.${tag}@example.test`,
      password: "Omar-pw-88421",
    });
    const vps = await productId(app(), "vps-entry");
    const samp = await productId(app(), "samp-starter");
    // name, user, product, monthly price, cycle, days left, status
    const rows: [string, string, number | undefined, number, BillingCycle, number, string][] = [
      ["a", nina, samp, 500, "monthly", 3, "active"],
      ["b", nina, samp, 900, "quarterly", 20, "active"],
      ["c", omar, vps, 1500, "annual", 200, "active"],
      ["d", omar, samp, 100, "monthly", 5, "suspended"],
      ["e", omar, undefined, 700, "monthly", -2, "terminated"],
    ];
    for (const [key, userId, product, price, cycle, days, status] of rows) {
      const service = await added(app(), {
        userId,
        name: `Srv ${key} ${key === "c" ? tag : "plain"}`,
        priceCents: price,
        productId: product,
        billingCycle: cycle,
      });
      ids[key] = service.id;
      await app()
        .db.updateTable("hosting_services")
        .set({ expires_at: new Date(now + days * DAY).toISOString(), status })
        .where("id", "=", service.id)
        .execute();
    }
  });

  it("searches customer names, customer emails and service names", async () => {
    // Nina's name and email carry the tag, Omar's email does, service c's name does.
    expect(new Set(idsOf(await list({ page: 1, q: tag })))).toEqual(new Set(Object.values(ids)));
    expect(new Set(idsOf(await list({ page: 1, q: `Nina ${tag}` })))).toEqual(
      new Set([ids.a, ids.b]),
    );
    expect(idsOf(await list({ page: 1, q: `omar.${tag}@EXAMPLE.test` })).sort()).toEqual(
      [ids.c, ids.d, ids.e].sort(),
    );
    expect(idsOf(await list({ page: 1, q: `Srv c ${tag}` }))).toEqual([ids.c]);
    expect(idsOf(await list({ page: 1, q: `${tag}%_nothing` }))).toEqual([]);
  });

  it("filters by status, by type and by expiring within N days", async () => {
    const base = { page: 1, q: tag };
    expect(idsOf(await list({ ...base, status: "suspended" }))).toEqual([ids.d]);
    expect(idsOf(await list({ ...base, status: "terminated" }))).toEqual([ids.e]);
    expect(new Set(idsOf(await list({ ...base, status: "active" })))).toEqual(
      new Set([ids.a, ids.b, ids.c]),
    );
    expect(new Set(idsOf(await list({ ...base, type: "samp" })))).toEqual(
      new Set([ids.a, ids.b, ids.d]),
    );
    // Within 7 days: a (3) and d (5); not e (expired 2 days ago) nor b (20).
    expect(new Set(idsOf(await list({ ...base, within: "7" })))).toEqual(new Set([ids.a, ids.d]));
    expect(new Set(idsOf(await list({ ...base, within: "30" })))).toEqual(
      new Set([ids.a, ids.b, ids.d]),
    );
    expect(
      idsOf(await list({ ...base, within: "30", status: "active", type: "samp" })).sort(),
    ).toEqual([ids.a, ids.b].sort());
  });

  it("sorts by expiry, creation, price and customer, both ways", async () => {
    const base = { page: 1, q: tag };
    const order = (keys: string) => [...keys].map((key) => ids[key]);
    expect(idsOf(await list({ ...base, sort: "expires", dir: "asc" }))).toEqual(order("eadbc"));
    expect(idsOf(await list({ ...base, sort: "expires", dir: "desc" }))).toEqual(order("cbdae"));
    expect(idsOf(await list({ ...base, sort: "created", dir: "asc" }))).toEqual(order("abcde"));
    expect(idsOf(await list({ ...base }))).toEqual(order("edcba"));
    // Cycle prices: a 500, b 2565, c 15300, d 100, e 700.
    expect(idsOf(await list({ ...base, sort: "price", dir: "asc" }))).toEqual(order("daebc"));
    // Nina before Omar; the id breaks ties, in the same direction.
    expect(idsOf(await list({ ...base, sort: "customer", dir: "asc" }))).toEqual(order("abcde"));
    expect(idsOf(await list({ ...base, sort: "customer", dir: "desc" }))).toEqual(order("edcba"));
  });

  it("pages, says whether more follow, and returns nothing past the end", async () => {
    const base = { q: tag, sort: "created" as const, dir: "asc" as const, pageSize: 2 };
    const pages = [];
    for (const page of [1, 2, 3, 4]) pages.push(await list({ ...base, page }));
    expect(pages.map(idsOf)).toEqual([[ids.a, ids.b], [ids.c, ids.d], [ids.e], []]);
    expect(pages.map((page) => page.hasMore)).toEqual([true, true, false, false]);
    expect(await list({ page: 1000, q: tag })).toEqual({ services: [], hasMore: false });
  });
});

describeEachDatabase("an admin's edit of a service", (app) => {
  let customer: string;
  let serviceId: number;
  beforeAll(async () => {
    customer = await customerWithCoins(app(), 100_000);
    serviceId = (
      await added(app(), { userId: customer, priceCents: 1000, billingCycle: "quarterly" })
    ).id;
  });
  const edit = async (form: Record<string, string>) => {
    const parsed = editServiceSchema.safeParse(form);
    if (!parsed.success) return { refused: parsed.error.issues.map((issue) => issue.message) };
    return editServiceByAdmin(app().db, { ...parsed.data, actorId: await adminId(app()) });
  };
  const auditOf = (id: number) =>
    readRows(
      app().db,
      "audit_log",
      ["action", "before", "after", "actor_id"],
      { target_type: "hosting_service", target_id: String(id), action: "service.edit" },
      "id",
    );
  const serviceRow = () => readRow(app().db, "hosting_services", "*", { id: serviceId });

  it("changes name, price, expiry date and note, writing old and new values to the audit log", async () => {
    const before = await serviceRow();
    const oldExpiry = new Date(String(before.expires_at)).toISOString();
    const result = await edit({
      serviceId: String(serviceId),
      name: "Renamed",
      price: "€ 12,34",
      expiresOn: "2031-05-17",
      adminNote: "  Paid by bank transfer  ",
    });
    expect(result).toMatchObject({ ok: true, changed: true });
    const after = await serviceRow();
    const newExpiry = `2031-05-17${oldExpiry.slice(10)}`;
    expect(after).toMatchObject({
      name: "Renamed",
      cycle_price_cents: 1234,
      admin_note: "Paid by bank transfer",
    });
    expect(new Date(String(after.expires_at)).toISOString()).toBe(newExpiry);
    const audit = await auditOf(serviceId);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor_id).toBe(await adminId(app()));
    expect(JSON.parse(audit[0]!.before!)).toEqual({
      name: "Hand-made",
      cyclePriceCents: before.cycle_price_cents,
      expiresAt: oldExpiry,
      adminNote: null,
    });
    expect(JSON.parse(audit[0]!.after!)).toEqual({
      name: "Renamed",
      cyclePriceCents: 1234,
      expiresAt: newExpiry,
      adminNote: "Paid by bank transfer",
    });
    // The renewal charges the new price.
    const balance = await balanceOf(app(), customer);
    const renewal = await renewWithNewKey(app(), customer, serviceId);
    expect(renewal.ok).toBe(true);
    expect(balance - (await balanceOf(app(), customer))).toBe(1234);
    await expectLedgerIntact(app());
  });

  it("writes only the fields that changed, and nothing when none did", async () => {
    const current = await serviceRow();
    const form = {
      serviceId: String(serviceId),
      name: current.name,
      price: "12.34",
      expiresOn: new Date(String(current.expires_at)).toISOString().slice(0, 10),
      adminNote: current.admin_note ?? "",
    };
    const count = (await auditOf(serviceId)).length;
    expect(await edit(form)).toMatchObject({ ok: true, changed: false });
    expect(await auditOf(serviceId)).toHaveLength(count);
    expect(await edit({ ...form, adminNote: "" })).toMatchObject({ ok: true, changed: true });
    const audit = await auditOf(serviceId);
    expect(audit).toHaveLength(count + 1);
    expect(JSON.parse(audit.at(-1)!.before!)).toEqual({ adminNote: current.admin_note });
    expect(JSON.parse(audit.at(-1)!.after!)).toEqual({ adminNote: null });
  });

  describe("refusals", () => {
    const good = () => ({
      serviceId: String(serviceId),
      name: "Fine",
      price: "5.00",
      expiresOn: "2030-01-01",
      adminNote: "",
    });
    it("an unknown service is not found, and changes nothing", async () => {
      const count = (await auditOf(999_999)).length;
      expect(await edit({ ...good(), serviceId: "999999" })).toEqual(
        refusal("notFound", "services.errors.notFound"),
      );
      expect(await auditOf(999_999)).toHaveLength(count);
    });
    it.each([
      ["2030-02-30", "services.errors.expiryInvalid"],
      ["31/01/2030", "services.errors.expiryInvalid"],
      ["1999-12-31", "services.errors.expiryInvalid"],
      ["", "services.errors.expiryInvalid"],
    ])("a bad date %j: %s", async (expiresOn, message) => {
      expect(await edit({ ...good(), expiresOn })).toEqual({ refused: [message] });
    });
    it.each([
      ["-1.00", "services.errors.price.negative"],
      ["abc", "services.errors.price.invalid"],
      ["1.234", "services.errors.price.decimals"],
      ["", "services.errors.price.required"],
      ["99999999", "services.errors.price.tooLarge"],
    ])("a bad price %j: %s", async (price, message) => {
      expect(await edit({ ...good(), price })).toEqual({ refused: [message] });
    });
    it("a member whose role does not manage services changes nothing, whatever route called", async () => {
      const before = await serviceRow();
      const count = (await auditOf(serviceId)).length;
      for (const role of ["billing", "support"] as const) {
        const actorId = await staffMember(app(), role);
        const form = editServiceSchema.parse({ ...good(), name: `Renamed by ${role}` });
        expect(await editServiceByAdmin(app().db, { ...form, actorId })).toMatchObject({
          ok: false,
          kind: "forbidden",
          permission: "services.manage",
        });
        expect(
          await changeServiceStatus(app().db, { actorId, serviceId, action: "suspend" }),
        ).toMatchObject({ ok: false, kind: "forbidden" });
        expect(await deleteService(app().db, { actorId, serviceId })).toMatchObject({
          ok: false,
          kind: "forbidden",
        });
        expect(
          await adminAddService(app().db, {
            actorId,
            userId: customer,
            name: "Gift",
            billingCycle: "monthly",
          }),
        ).toMatchObject({ ok: false, kind: "forbidden" });
      }
      // A customer is no member of the staff at all.
      expect(
        await changeServiceStatus(app().db, { actorId: customer, serviceId, action: "suspend" }),
      ).toMatchObject({ ok: false, kind: "forbidden" });
      expect(await serviceRow()).toEqual(before);
      expect(await auditOf(serviceId)).toHaveLength(count);
      const technician = await staffMember(app(), "technician");
      expect(
        await changeServiceStatus(app().db, { actorId: technician, serviceId, action: "suspend" }),
      ).toMatchObject({ ok: true });
      await changeServiceStatus(app().db, { actorId: technician, serviceId, action: "reactivate" });
    });
    it("a blank name and a note too long", async () => {
      expect(await edit({ ...good(), name: "  " })).toEqual({
        refused: ["services.errors.nameRequired"],
      });
      expect(await edit({ ...good(), adminNote: "x".repeat(2001) })).toEqual({
        refused: ["services.errors.noteTooLong"],
      });
    });
  });
});
