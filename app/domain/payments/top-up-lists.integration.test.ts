import { expect, it } from "vitest";
import {
  adminId,
  customerWithCoins,
  expectLedgerIntactAfterEach,
} from "../../../tests/support/money-fixtures";
import { enabledOrangeMoney } from "../../../tests/support/top-up-fixtures";
import { pngProof } from "../../../tests/support/proof-files";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { createPaymentMethod } from "./payment-methods.server";
import { PAST_TOP_UPS_SHOWN } from "./top-ups";
import { approveTopUp } from "./top-up-decisions.server";
import { listTopUpQueue, loadCustomerTopUps } from "./top-up-lists.server";
import { cancelTopUp, markTopUpPaid, requestTopUp } from "./top-up-requests.server";
import { loadTopUpPage } from "./top-ups.server";

// What the customer's page and the admin's queue list: which requests, in which order, with what.

describeEachDatabase("top-up lists", (app) => {
  expectLedgerIntactAfterEach(app);

  /** A method of this test's own (so a list filtered by it holds this test's requests only). */
  async function ownMethod(name: string) {
    const created = await createPaymentMethod(app().db, {
      actorId: await adminId(app()),
      method: {
        names: { en: name, fr: "", ar: "" },
        instructions: { en: `Pay ${name}`, fr: "", ar: "" },
        currency: "MAD",
        rate: 1100,
        minCoins: 1,
        maxCoins: 500,
        feeFixed: 0,
        feePercentBp: 0,
        enabled: true,
        sortOrder: 50,
      },
    });
    if (!created.ok) throw new Error(created.error);
    return created.method.id;
  }

  async function ask(userId: string, methodId: number, coins = 10) {
    const asked = await requestTopUp(app().db, { userId, methodId, coins });
    if (!asked.ok) throw new Error(asked.error);
    return asked.request;
  }

  it("shows the customer's open request and their 20 latest others, newest first", async () => {
    const db = app().db;
    const methodId = (await enabledOrangeMoney(app())).id;
    const customer = await customerWithCoins(app(), 0);
    const closed: number[] = [];
    for (let i = 0; i <= PAST_TOP_UPS_SHOWN; i++) {
      const request = await ask(customer, methodId);
      await cancelTopUp(db, { userId: customer, requestId: request.id });
      closed.push(request.id);
    }
    const latest = closed.slice(1).reverse();
    // None open: no instructions, no files, the 20 latest of the 21.
    expect(await loadCustomerTopUps(db, customer, "en")).toMatchObject({
      current: null,
      instructions: "",
    });
    const page = await loadTopUpPage(db, customer, "en", { now: new Date("2031-03-04T23:30:00Z") });
    expect(page.past.map((request) => request.id)).toEqual(latest);
    expect(page.proofs).toEqual([]);
    // The form's day is the server's, as a date.
    expect(page.today).toBe("2031-03-04");

    const open = await ask(customer, methodId);
    const withOpen = await loadCustomerTopUps(db, customer, "en");
    expect(withOpen.current?.id).toBe(open.id);
    expect(withOpen.instructions).toBe("Send to 0611 111 111");
    expect(withOpen.past.map((request) => request.id)).toEqual(latest);
  });

  it("filters the queue by state and method, the requests awaiting a decision first, the longest waiting first", async () => {
    const db = app().db;
    const admin = await adminId(app());
    const methodId = await ownMethod("Queue Pay");
    const customers = await Promise.all([0, 1, 2, 3].map(() => customerWithCoins(app(), 0)));
    const [waiting, paidLate, paidEarly, approved] = await Promise.all(
      customers.map((customer) => ask(customer, methodId)),
    );
    for (const [request, colour] of [
      [paidLate!, "#101010"],
      [paidEarly!, "#202020"],
      [approved!, "#303030"],
    ] as const)
      expect(
        await markTopUpPaid(db, {
          userId: request.userId,
          requestId: request.id,
          payerAccount: "0600",
          paidOn: "2026-06-15",
          proofs: [await pngProof(`${request.reference}.png`, { colour })],
          now: new Date("2026-06-15T10:00:00Z"),
        }),
      ).toMatchObject({ ok: true });
    expect(await approveTopUp(db, { adminId: admin, requestId: approved!.id })).toMatchObject({
      ok: true,
    });
    // How long each has waited: its last change. The one marked paid first comes first.
    const changedAt = (id: number, at: string) =>
      db.updateTable("top_up_requests").set({ updated_at: at }).where("id", "=", id).execute();
    await changedAt(waiting!.id, "2026-06-10T08:00:00.000Z");
    await changedAt(paidEarly!.id, "2026-06-14T08:00:00.000Z");
    await changedAt(paidLate!.id, "2026-06-15T08:00:00.000Z");
    // Another method's request, which the method's filter leaves out.
    await ask(await customerWithCoins(app(), 0), (await enabledOrangeMoney(app())).id);

    const method = String(methodId);
    const listed = async (state?: "proof_sent" | "rejected") =>
      (await listTopUpQueue(db, { state, method, page: 1 }, "en")).items.map(
        (item) => item.reference,
      );
    expect(await listed()).toEqual([
      paidEarly!.reference,
      paidLate!.reference,
      waiting!.reference,
      approved!.reference,
    ]);
    expect(await listed("proof_sent")).toEqual([paidEarly!.reference, paidLate!.reference]);
    // A filter that finds nothing: no rows, and no customer's history.
    expect(await listTopUpQueue(db, { state: "rejected", method, page: 1 }, "en")).toEqual({
      items: [],
      hasMore: false,
      histories: {},
    });
  });

  it("searches the queue by a request's reference or its customer's email or name, wildcards taken literally", async () => {
    const db = app().db;
    const methodId = await ownMethod("Search Pay");
    const [first, second] = [await customerWithCoins(app(), 0), await customerWithCoins(app(), 0)];
    await db.updateTable("users").set({ name: "Nadia_Benali" }).where("id", "=", first).execute();
    const mine = await ask(first, methodId);
    const theirs = await ask(second, methodId);
    const email = (
      await db.selectFrom("users").select("email").where("id", "=", first).executeTakeFirstOrThrow()
    ).email;
    const found = async (q: string) =>
      (await listTopUpQueue(db, { method: String(methodId), q, page: 1 }, "en")).items.map(
        (item) => item.reference,
      );
    expect(await found(mine.reference)).toEqual([mine.reference]);
    expect(await found(mine.reference.toLowerCase())).toEqual([mine.reference]);
    expect(await found(email.toUpperCase())).toEqual([mine.reference]);
    expect(await found("nadia_benali")).toEqual([mine.reference]);
    // "_" and "%" are letters here, not LIKE's wildcards.
    expect(await found("nadia%")).toEqual([]);
    expect(await found("Nadia Benali")).toEqual([]);
    expect((await found("example.com")).sort()).toEqual([mine.reference, theirs.reference].sort());
  });

  it("names a request's method in the reader's language, even when its stored names lack one or are damaged", async () => {
    const db = app().db;
    const methodId = await ownMethod("Damaged Pay");
    const customer = await customerWithCoins(app(), 0);
    await ask(customer, methodId);
    const namedIn = async (names: string) => {
      await db.updateTable("payment_methods").set({ names }).where("id", "=", methodId).execute();
      const shown: (string | undefined)[] = [];
      for (const locale of ["en", "fr", "ar"])
        shown.push((await loadCustomerTopUps(db, customer, locale)).current?.methodName);
      return shown;
    };
    // Each language its own name.
    expect(await namedIn(JSON.stringify({ en: "Cash", fr: "Espèces", ar: "نقدًا" }))).toEqual([
      "Cash",
      "Espèces",
      "نقدًا",
    ]);
    // French not a text, Arabic missing: the English name in each language.
    expect(await namedIn(JSON.stringify({ en: "Cash", fr: 5 }))).toEqual(["Cash", "Cash", "Cash"]);
    // Not JSON at all: no name, and still the page.
    expect(await namedIn("not JSON")).toEqual(["", "", ""]);
  });
});
