import { expect, it } from "vitest";
import { adjustCoins } from "~/domain/coins/coins.server";
import { approveTopUp } from "~/domain/payments/top-up-decisions.server";
import { cancelTopUp, requestTopUp } from "~/domain/payments/top-up-requests.server";
import { readRows } from "../../../tests/support/read-column";
import {
  adminId,
  approvedOrder,
  customerWithCoins,
  productId,
} from "../../../tests/support/money-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { enabledOrangeMoney, openTopUp } from "../../../tests/support/top-up-fixtures";
import { CLIENT_SECTION_SIZE } from "./clients";
import { getClientDetail } from "./clients.server";

// The client page's invoices, top-ups and mail: the client's own, newest first, capped, one query each.

describeEachDatabase("client page records", (app) => {
  it("lists the client's invoices, top-ups and mail, newest first, and no one else's", async () => {
    const admin = await adminId(app());
    const product = await productId(app(), "samp-starter");
    const client = await customerWithCoins(app(), 50_000);
    const other = await customerWithCoins(app(), 50_000);
    await approvedOrder(app(), client, { productId: product });
    await approvedOrder(app(), other, { productId: product, serverName: "Not the client's" });
    const paid = await openTopUp(app(), client, 10, { paid: true });
    expect((await approveTopUp(app().db, { adminId: admin, requestId: paid.id })).ok).toBe(true);
    const open = await openTopUp(app(), client, 20);
    await openTopUp(app(), other, 30);

    const detail = (await getClientDetail(app().db, client, "fr"))!;

    const documents = await readRows(
      app().db,
      "invoices",
      ["number"],
      { user_id: client },
      "id desc",
    );
    expect(documents.length).toBeGreaterThanOrEqual(2);
    expect(detail.invoices.rows.map((doc) => doc.number)).toEqual(
      documents.map((doc) => doc.number),
    );
    expect(new Set(detail.invoices.rows.map((doc) => doc.kind))).toEqual(
      new Set(["invoice", "receipt"]),
    );

    expect(detail.topUps.rows.map((request) => [request.reference, request.state])).toEqual([
      [open.reference, "waiting_payment"],
      [paid.reference, "approved"],
    ]);
    // The amount in the method's currency, as the request froze it.
    expect(detail.topUps.rows[1]).toMatchObject({ currency: "MAD", total: 11_000, coins: 10 });

    const mail = await readRows(app().db, "mail_outbox", ["id"], { user_id: client }, "id desc");
    expect(mail.length).toBeGreaterThanOrEqual(3);
    expect(detail.mail.rows.map((m) => m.id)).toEqual(mail.map((m) => Number(m.id)));
    expect(detail.mail.rows.map((m) => m.kind)).toContain("orderApproved");
    expect(new Set(detail.mail.rows.map((m) => m.to))).toEqual(new Set([detail.profile.email]));
    for (const list of [detail.invoices, detail.topUps, detail.mail])
      expect(list.hasMore).toBe(false);
  });

  it("shows the newest of the top-ups and mail only, and says older ones exist", async () => {
    const admin = await adminId(app());
    const method = await enabledOrangeMoney(app());
    const client = await customerWithCoins(app(), 0);
    const references: string[] = [];
    for (let i = 0; i <= CLIENT_SECTION_SIZE; i++) {
      const asked = await requestTopUp(app().db, { userId: client, methodId: method.id, coins: 5 });
      if (!asked.ok) throw new Error(asked.error);
      await cancelTopUp(app().db, { userId: client, requestId: asked.request.id });
      references.push(asked.request.reference);
      // Each a "coins changed" message.
      expect(
        (
          await adjustCoins(app().db, {
            userId: client,
            amountCents: 100,
            reason: "x",
            actorId: admin,
          })
        ).ok,
      ).toBe(true);
    }
    const detail = (await getClientDetail(app().db, client))!;
    expect(detail.topUps.rows.map((request) => request.reference)).toEqual(
      references.slice(1).reverse(),
    );
    expect(detail.topUps.hasMore).toBe(true);
    expect(detail.mail.rows).toHaveLength(CLIENT_SECTION_SIZE);
    expect(detail.mail.hasMore).toBe(true);
  });

  it("reads each list in one query, however many rows it shows", async () => {
    const client = await customerWithCoins(app(), 50_000);
    await approvedOrder(app(), client, { productId: await productId(app(), "samp-starter") });
    await openTopUp(app(), client, 10);
    const tables: string[] = [];
    const watched = app().db.withPlugin({
      transformQuery({ node }) {
        const table = JSON.stringify(node).match(/"kind":"TableNode".*?"name":"(\w+)"/)?.[1];
        tables.push(`${node.kind}:${table}`);
        return node;
      },
      async transformResult({ result }) {
        return result;
      },
    });
    const detail = (await getClientDetail(watched, client))!;
    expect(detail.invoices.rows.length + detail.mail.rows.length).toBeGreaterThan(2);
    const reads = (table: string) => tables.filter((t) => t === `SelectQueryNode:${table}`);
    expect(reads("invoices"), tables.join(", ")).toHaveLength(1);
    expect(reads("top_up_requests"), tables.join(", ")).toHaveLength(1);
    expect(reads("mail_outbox"), tables.join(", ")).toHaveLength(1);
  });
});
