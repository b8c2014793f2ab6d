import { expect, it } from "vitest";
import { MAX_NOTIFICATION_BYTES } from "~/domain/payments/providers/provider";
import { appFetch } from "../support/app-harness";
import { onlineWorld, startedPayment } from "../support/online-payment-fixtures";
import { scriptedNotification } from "../support/scripted-provider";
import { describeEachDatabase } from "../support/test-database";

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
