import { expect, it } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import { MAX_NOTIFICATION_BYTES } from "~/domain/payments/providers/provider";
import { listRefusedNotifications } from "~/domain/payments/providers/provider-settings.server";
import { appFetch } from "../support/app-harness";
import { onlineWorld, startedPayment } from "../support/online-payment-fixtures";
import { scriptedNotification } from "../support/scripted-provider";
import { cookieHeader } from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

// POST /hooks/payments/:provider as the server answers it: JSON, the webhook's statuses, no session.

describeEachDatabase("the payment webhook's route", (app) => {
  it("answers a provider's notifications in JSON with the webhook's statuses", async () => {
    const world = await onlineWorld(app());
    app().paymentProviders = world.providers;
    const payment = await startedPayment(app(), world);
    const fetch = appFetch(app());
    const post = (provider: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`/hooks/payments/${provider}`, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", ...headers },
      });

    const good = scriptedNotification(world.providerSecret, {
      id: "evt-route-1",
      providerRef: payment.provider_ref,
    });
    const accepted = await post("youcanpay", good.rawBody, good.headers);
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await accepted.json()).toEqual({ ok: true, outcome: "queued" });
    expect(await (await post("youcanpay", good.rawBody, good.headers)).json()).toEqual({
      ok: true,
      outcome: "duplicate",
    });

    const forged = scriptedNotification("not-the-key", { id: "evt-route-2" });
    expect((await post("youcanpay", forged.rawBody, forged.headers)).status).toBe(401);
    expect((await post("youcanpay", "{broken")).status).toBe(400);
    expect((await post("stripe", good.rawBody, good.headers)).status).toBe(404);
    expect((await post("youcanpay", "x".repeat(MAX_NOTIFICATION_BYTES + 1))).status).toBe(413);
    expect((await fetch("/hooks/payments/youcanpay")).status).toBe(405);
  });
});

// A database of its own: the statuses' test above sends an oversized body too.
describeEachDatabase("the payment webhook's refusals for the admin", (app) => {
  it("counts an oversized body and each replay for the admin, one row each however often", async () => {
    const world = await onlineWorld(app());
    app().paymentProviders = world.providers;
    const payment = await startedPayment(app(), world);
    const fetch = appFetch(app());
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch("/hooks/payments/youcanpay", {
        method: "POST",
        body,
        headers: { "content-type": "application/json", ...headers },
      });
    const refusals = () =>
      app()
        .db.selectFrom("provider_notification_refusals")
        .select(["provider", "reason", "key", "bytes", "count"])
        .orderBy("id")
        .execute();

    // A body over the limit, sent as a provider would (a real body, no length declared): refused, never
    // kept, counted with its size.
    const oversized = JSON.stringify({
      id: "evt-huge",
      padding: "x".repeat(MAX_NOTIFICATION_BYTES),
    });
    expect((await post(oversized)).status).toBe(413);
    expect((await post(oversized)).status).toBe(413);
    const bytes = Buffer.byteLength(oversized);
    expect(await refusals()).toEqual([
      { provider: "youcanpay", reason: "tooLarge", key: "", bytes, count: 2 },
    ]);
    expect(await app().db.selectFrom("provider_notifications").select("id").execute()).toHaveLength(
      0,
    );

    // A notification and two replays of it: kept once, the replays counted on one row.
    const good = scriptedNotification(world.providerSecret, {
      id: "evt-replayed",
      providerRef: payment.provider_ref,
    });
    for (const outcome of ["queued", "duplicate", "duplicate"])
      expect(await (await post(good.rawBody, good.headers)).json()).toEqual({ ok: true, outcome });
    expect(await refusals()).toEqual([
      { provider: "youcanpay", reason: "tooLarge", key: "", bytes, count: 2 },
      { provider: "youcanpay", reason: "replay", key: "evt-replayed", bytes: null, count: 2 },
    ]);

    // Both listed for the admin beside the refused notifications, newest first, each labelled.
    const listed = await listRefusedNotifications(app().db, { page: 1 });
    expect(listed.notifications).toEqual([
      expect.objectContaining({ outcome: "replay", eventId: "evt-replayed", count: 2 }),
      expect.objectContaining({ outcome: "tooLarge", bytes, count: 2 }),
    ]);
    const signedIn = await signIn(
      app(),
      { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
      { ip: "10.62.0.1" },
    );
    if (!signedIn.ok) throw new Error("sign in failed");
    const page = await fetch("/admin/gateways", { cookie: cookieHeader(signedIn.setCookies) });
    const html = await page.text();
    for (const text of ["Body too large", "Sent again (replay)", "evt-replayed", "2 in all"])
      expect(html).toContain(text);
  });
});
