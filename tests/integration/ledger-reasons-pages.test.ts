import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { adjustCoins } from "~/domain/coins/coins.server";
import { renewService } from "~/domain/hosting-services/renewal.server";
import { addCoinsFromTicket } from "~/domain/tickets/tickets.server";
import { appFetch, type AppFetch } from "../support/app-harness";
import { registeredCustomer, signedInCookie } from "../support/account-fixtures";
import { adminId, approvedOrder, productId } from "../support/money-fixtures";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";
import { openedTicket } from "../support/ticket-fixtures";

const FSI = "\u2068";
const PDI = "\u2069";

// The reasons of the coin history and the transactions page, in the reader's language.
describeEachDatabase("ledger reasons on the pages", (app) => {
  let fetch: AppFetch;
  let customer: string;
  let admin: string;
  let orderId: number;
  let ticketId: number;

  beforeAll(async () => {
    fetch = appFetch(app());
    const account = {
      name: "Rida Reasons",
      email: "rida.reasons@example.test",
      password: "Rida-pw-55123",
    };
    const userId = await registeredCustomer(app(), account);
    const actorId = await adminId(app());
    const credit = await adjustCoins(app().db, {
      userId,
      amountCents: 10_000,
      reason: "Virement CashPlus",
      actorId,
    });
    expect(credit.ok).toBe(true);
    const { placed, approved } = await approvedOrder(app(), userId, {
      productId: await productId(app(), "samp-premium"),
    });
    orderId = placed.id;
    const renewed = await renewService(app().db, {
      userId,
      serviceId: approved.hostingServiceId!,
      idempotencyKey: randomUUID(),
    });
    expect(renewed.ok).toBe(true);
    const ticket = await openedTicket(app(), userId, { department: "billing", subject: "Coins" });
    ticketId = ticket.id;
    const bought = await addCoinsFromTicket(app().db, {
      actorId,
      ticketId,
      amountCents: 500,
      idempotencyKey: randomUUID(),
    });
    expect(bought.ok).toBe(true);
    customer = await signedInCookie(app(), account, { ip: "10.82.0.1" });
    admin = await signedInCookie(app(), TEST_ADMIN, { ip: "10.82.0.2" });
  });

  /** The page's main content as rendered (the loader data after it carries the English text too). */
  async function page(path: string, cookie: string) {
    const response = await fetch(path, { cookie });
    expect(response.status, path).toBe(200);
    const html = await response.text();
    return html.slice(html.indexOf("<main"), html.indexOf("</main>"));
  }

  it("shows the customer's coin history in English, French and Arabic", async () => {
    const english = await page("/dashboard/billing?lang=en", customer);
    expect(english).toContain(`Order #${orderId}: SAMP Premium`);
    expect(english).toContain("Renewal of SAMP Premium");
    expect(english).toContain(`Ticket #${ticketId}: Coins`);
    expect(english).toContain("Coin purchase");
    // An admin's own words are shown as typed, in every language.
    expect(english).toContain("Virement CashPlus");

    const french = await page("/dashboard/billing?lang=fr", customer);
    expect(french).toContain(`Commande n° ${orderId} : SAMP Premium`);
    expect(french).toContain("Renouvellement de SAMP Premium");
    expect(french).toContain("Achat de coins");
    expect(french).not.toContain("Renewal of SAMP Premium");
    expect(french).toContain("Virement CashPlus");

    const arabic = await page("/dashboard/billing?lang=ar", customer);
    expect(arabic).toContain(`تجديد ${FSI}SAMP Premium${PDI}`);
    expect(arabic).toContain(`الطلب رقم ${FSI}${orderId}${PDI}: ${FSI}SAMP Premium${PDI}`);
    expect(arabic).not.toContain("Renewal of SAMP Premium");
  });

  it("shows the overview's recent activity and the balance in coins in the reader's language", async () => {
    const french = await page("/dashboard?lang=fr", customer);
    expect(french).toContain("Renouvellement de SAMP Premium");
    expect(french).not.toContain("Renewal of SAMP Premium");
    const english = await page("/dashboard?lang=en", customer);
    expect(english).toContain("Account Credit");
    // 10,000 − 450 − 450 + 500 cents: the card names the balance as the header does.
    expect(english).toContain("<bdi>96.00 coins</bdi>");
  });

  it("shows the admin's transactions in the admin's language", async () => {
    const french = await page("/admin/transactions?lang=fr", admin);
    expect(french).toContain(`Commande n° ${orderId} : SAMP Premium`);
    expect(french).toContain(`Ticket n° ${ticketId} : Coins`);
    expect(french).toContain("Achat de coins");
    const purchases = await page("/admin/transactions?kind=coin_purchase&lang=en", admin);
    expect(purchases).toContain(`Ticket #${ticketId}: Coins`);
    expect(purchases).not.toContain("Renewal of SAMP Premium");
  });
});
