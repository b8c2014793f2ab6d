import { afterEach, beforeEach, expect, it } from "vitest";
import { adjustCoins } from "~/domain/coins/coins.server";
import { defaultSettings } from "~/domain/settings/settings";
import { getSettings, updateSettingsSection } from "~/domain/settings/settings.server";
import { sendDueMail } from "../../../tests/support/mail-fixtures";
import {
  adminId,
  balanceOf,
  customerWithRunningService,
} from "../../../tests/support/money-fixtures";
import { readRow } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { runLifecycle } from "./lifecycle.server";

// What the lifecycle's mails say of what comes next (docs/mail.md "A service's messages"): the short
// balance's and the suspension's, each with when the service is suspended or terminated unless it is
// renewed, what renewing costs (the renewal's quote), and the way to renew or to add coins. The clock is
// the run's, injected; the dates are written in the site's time zone.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The service's expiry: 20:00 UTC, 21:00 in Paris (winter time until 30 March 2031). */
const EXPIRY = Date.parse("2031-03-09T20:00:00.000Z");
const PRICE = 1_250;
const iso = (time: number) => new Date(time).toISOString();

describeEachDatabase("the lifecycle's mail: dates and the renewal's price", (app) => {
  beforeEach(async () => {
    const db = app().db;
    await updateSettingsSection(db, "lifecycle", { ...defaultSettings().lifecycle, enabled: true });
    const { general } = await getSettings(db);
    await updateSettingsSection(db, "general", { ...general, timeZone: "Europe/Paris" });
    app().settings.invalidate();
  });
  afterEach(async () => {
    const db = app().db;
    await updateSettingsSection(db, "lifecycle", defaultSettings().lifecycle);
    await updateSettingsSection(db, "general", defaultSettings().general);
    app().settings.invalidate();
  });

  /** A customer's monthly service of PRICE expiring at EXPIRY, and a balance of `balanceCents`. */
  async function expiringService(balanceCents: number, autoRenew: boolean) {
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    await app()
      .db.updateTable("hosting_services")
      .set({
        expires_at: iso(EXPIRY),
        cycle_price_cents: PRICE,
        billing_cycle: "monthly",
        auto_renew: autoRenew ? 1 : 0,
      })
      .where("id", "=", serviceId)
      .execute();
    const adjusted = await adjustCoins(app().db, {
      userId: user,
      amountCents: balanceCents - (await balanceOf(app(), user)),
      reason: "test balance",
      actorId: await adminId(app()),
    });
    if (!adjusted.ok) throw new Error(adjusted.error);
    // Earlier mail (the order's, the coins') is not what this test reads.
    await app().db.deleteFrom("mail_outbox").where("user_id", "=", user).execute();
    return { user, serviceId };
  }

  /** The customer's one message of `kind`: its values, and its text once the worker wrote it. */
  async function written(user: string, kind: string, at: number) {
    await sendDueMail(
      app(),
      { smtpUrl: undefined, from: "Hostfront <no-reply@hostfront.test>" },
      { rounds: 3, now: () => new Date(at) },
    );
    const row = await readRow(app().db, "mail_outbox", ["params", "text", "state"], {
      user_id: user,
      kind,
    });
    expect(row.state).toBe("kept");
    return { params: JSON.parse(row.params) as Record<string, unknown>, text: row.text! };
  }

  it("tells a short balance when the service is suspended and terminated, and what renewing costs", async () => {
    const { user, serviceId } = await expiringService(450, true);
    // Seven hours after its expiry, in its grace period: the automatic renewal lacks 8.00 coins.
    const now = EXPIRY + 7 * HOUR;
    await runLifecycle(app().db, { now: new Date(now) });
    const { params, text } = await written(user, "serviceRenewalShort", now);
    expect(params).toMatchObject({
      serviceId,
      expiresAt: iso(EXPIRY),
      expired: true,
      // The grace period (2 days) after the expiry, then the termination's 14 days.
      suspendsAt: iso(EXPIRY + 2 * DAY),
      terminatesAt: iso(EXPIRY + 16 * DAY),
      priceCents: PRICE,
      cycle: "monthly",
      missingCents: PRICE - 450,
    });
    expect(text).toContain(
      "renewing it costs 12.50 coins for one month, and your balance lacks 8.00 coins.",
    );
    // Its term has ended: the message says so rather than giving a past date as still to come.
    expect(text).toContain("Its term ended on 9 March 2031 at 21:00.");
    expect(text).toContain(
      "Unless it is renewed, it will be suspended on 11 March 2031 at 21:00 and terminated on 25 March 2031 at 21:00.",
    );
    expect(text).toContain("Add coins:\nhttp://localhost:3000/coins");
    expect(text).toContain("View my services:\nhttp://localhost:3000/dashboard/services");
  });

  it("tells a suspension when the service is terminated and what renewing costs, from the balance left", async () => {
    const short = await expiringService(450, false);
    // Past the grace period: both are suspended at this run, one with enough coins to renew.
    const now = EXPIRY + 2 * DAY + 5 * 60_000;
    const covered = await expiringService(5_000, false);
    await runLifecycle(app().db, { now: new Date(now) });
    for (const { serviceId } of [short, covered])
      expect(await readRow(app().db, "hosting_services", ["status"], { id: serviceId })).toEqual({
        status: "suspended",
      });

    const lacking = await written(short.user, "serviceSuspended", now);
    expect(lacking.params).toMatchObject({
      serviceId: short.serviceId,
      reason: "expired",
      suspendedAt: iso(now),
      terminatesAt: iso(now + 14 * DAY),
      priceCents: PRICE,
      cycle: "monthly",
      missingCents: PRICE - 450,
    });
    expect(lacking.text).toContain(
      "was suspended on 11 March 2031 at 21:05 because it expired and was not renewed.",
    );
    expect(lacking.text).toContain(
      "Without a renewal it will be terminated on 25 March 2031 at 21:05",
    );
    expect(lacking.text).toContain("Renewing it costs 12.50 coins for one month.");
    expect(lacking.text).toContain("Your balance lacks 8.00 coins for it");
    expect(lacking.text).toContain("Add coins:\nhttp://localhost:3000/coins");

    const enough = await written(covered.user, "serviceSuspended", now);
    expect(enough.params).toMatchObject({ priceCents: PRICE, missingCents: 0 });
    expect(enough.text).toContain("Renewing it costs 12.50 coins for one month.");
    expect(enough.text).not.toContain("lacks");
    // Straight to the renewal's confirmation of that service.
    expect(enough.text).toContain(
      `Renew now:\nhttp://localhost:3000/dashboard/services?renew=${covered.serviceId}#renewal`,
    );
  });
});
