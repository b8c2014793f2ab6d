import { createHash } from "node:crypto";
import { enqueueJob } from "~/domain/jobs/jobs.server";
import { inTransaction, type Db } from "~/db/transaction";
import { logger } from "~/lib/logger.server";
import type { ProviderWiring } from "./online-checkout.server";
import { recordNotificationRefusal } from "./notification-refusals.server";
import { tellStaff } from "./online-payment-alerts.server";
import { CONFIRM_JOB, confirmKey } from "./online-payments";
import {
  MAX_NOTIFICATION_BYTES,
  type NotificationRead,
  type ProviderCode,
} from "./providers/provider";
import { isProviderCode, readProviderConfig } from "./providers/provider-config.server";

// The webhook's work (docs/online-payments.md#notifications-are-an-inbox): a provider's notification
// checked for size and shape (and YouCan Pay's signature, which needs no call), kept in the inbox under
// its event id, and a confirmation queued. No provider is called here: the confirming job asks it.

/** What the webhook answers: a status and a small JSON body. */
export interface NotificationAnswer {
  status: 200 | 400 | 401 | 404 | 413 | 503;
  body: { ok: boolean; outcome: string };
}

const answer = (status: NotificationAnswer["status"], outcome: string): NotificationAnswer => ({
  status,
  body: { ok: status === 200, outcome },
});

const HOUR_MS = 60 * 60 * 1000;
/** Refused notifications kept an hour a provider, for the admin to look at; past it they are only refused. */
export const MAX_FORGED_KEPT_PER_HOUR = 50;
/** What is kept of a refused notification's body: enough to see what it claimed. */
export const FORGED_BODY_KEPT_CHARS = 2048;

/** The inbox's key for a notification whose own id cannot be trusted: its body's hash. */
function bodyKey(rawBody: string): string {
  return `sha256:${createHash("sha256").update(rawBody).digest("hex")}`;
}

/**
 * A notification as it came (`headers` with lower-case names). Answers 413 past MAX_NOTIFICATION_BYTES,
 * counted for the admin (no body kept), 404 for a provider we do not have or have no keys for (no shop asked it for anything), 503 while
 * its saved keys cannot be read (the site's own fault, fixed by saving them again: the provider sends
 * it again later), 400 for one that cannot be read (logged: without an id it cannot be kept), 401 for a bad
 * signature (kept under its body's hash, staff told once an hour). Otherwise it is kept once under its
 * event id (a replay: 200, nothing new but its count), linked to its payment by the provider's reference (an unknown
 * one is kept as such and answered 200, so the provider stops sending it), and a confirmation is
 * queued in the same transaction; 200 once committed.
 */
export async function receiveNotification(
  db: Db,
  input: { provider: string; headers: Record<string, string>; rawBody: string; now?: Date },
  wiring: ProviderWiring,
): Promise<NotificationAnswer> {
  const now = input.now ?? new Date();
  const bytes = Buffer.byteLength(input.rawBody, "utf8");
  if (bytes > MAX_NOTIFICATION_BYTES) {
    await recordNotificationRefusal(db, {
      provider: input.provider,
      reason: "tooLarge",
      bytes,
      now,
    });
    return answer(413, "tooLarge");
  }
  if (!isProviderCode(input.provider)) return answer(404, "unknownProvider");
  const code: ProviderCode = input.provider;
  const provider = wiring.providers[code];
  const config = await readProviderConfig(db, code, { secret: wiring.secret });
  if (!provider || (!config.ok && config.problem === "notConfigured"))
    return answer(404, "notConfigured");
  if (!config.ok) return answer(503, "unavailable");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers)) headers[name.toLowerCase()] = value;
  let read: NotificationRead;
  try {
    read = provider.readNotification(config.config, headers, input.rawBody);
  } catch (error) {
    logger.warn({ err: error, provider: code }, "a provider's notification could not be read");
    read = { ok: false, refusal: "malformed" };
  }
  const at = now.toISOString();
  if (!read.ok && read.refusal === "malformed") {
    logger.warn({ provider: code, bytes: input.rawBody.length }, "a malformed notification");
    return answer(400, "malformed");
  }
  if (!read.ok) {
    await inTransaction(db, async (trx) => {
      // Anyone can post a bad signature: what is kept of them is bounded, a few an hour and the start
      // of each body, so a flood of forged notifications cannot grow the database (the staff are told
      // once an hour all the same).
      const recent = await trx
        .selectFrom("provider_notifications")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("provider", "=", code)
        .where("outcome", "=", "badSignature")
        .where("received_at", ">", new Date(now.getTime() - HOUR_MS).toISOString())
        .executeTakeFirstOrThrow();
      if (Number(recent.n) >= MAX_FORGED_KEPT_PER_HOUR) return;
      const kept = await trx
        .insertInto("provider_notifications")
        .values({
          provider: code,
          event_id: bodyKey(input.rawBody),
          event_type: "unverified",
          body: input.rawBody.slice(0, FORGED_BODY_KEPT_CHARS),
          outcome: "badSignature",
          received_at: at,
          handled_at: at,
        })
        .onConflict((oc) => oc.columns(["provider", "event_id"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      if (kept)
        await tellStaff(
          trx,
          "badSignature",
          { provider: code, detail: `notification #${kept.id}` },
          now,
        );
    });
    return answer(401, "badSignature");
  }
  const { claim } = read;
  return inTransaction(db, async (trx) => {
    const refs = [
      ...(claim.providerRef ? [{ column: "provider_ref" as const, value: claim.providerRef }] : []),
      ...(claim.captureRef ? [{ column: "capture_ref" as const, value: claim.captureRef }] : []),
    ];
    const payment =
      refs.length === 0
        ? undefined
        : await trx
            .selectFrom("online_payments")
            .select("id")
            .where("provider", "=", code)
            .where((eb) => eb.or(refs.map((ref) => eb(ref.column, "=", ref.value))))
            .executeTakeFirst();
    const outcome = !payment ? "unknownPayment" : claim.kind === "other" ? "ignored" : "queued";
    const kept = await trx
      .insertInto("provider_notifications")
      .values({
        provider: code,
        event_id: claim.eventId,
        event_type: claim.eventType.slice(0, 200),
        provider_ref: claim.providerRef,
        online_payment_id: payment ? Number(payment.id) : null,
        body: input.rawBody,
        headers: JSON.stringify(claim.headers),
        outcome,
        received_at: at,
        handled_at: outcome === "queued" ? null : at,
      })
      .onConflict((oc) => oc.columns(["provider", "event_id"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!kept) {
      // Shown to the admin beside the refused ones: one row per event, its count raised each time.
      await recordNotificationRefusal(trx, {
        provider: code,
        reason: "replay",
        key: claim.eventId,
        now,
      });
      return answer(200, "duplicate");
    }
    if (outcome === "unknownPayment") {
      await tellStaff(
        trx,
        "unknownPayment",
        {
          provider: code,
          detail: `${claim.eventType} ${claim.providerRef ?? claim.captureRef ?? ""}`,
        },
        now,
      );
      return answer(200, outcome);
    }
    if (outcome === "ignored") return answer(200, outcome);
    const paymentId = Number(payment!.id);
    const job = {
      type: CONFIRM_JOB,
      payload: { paymentId, notificationId: Number(kept.id), captureHint: claim.captureRef },
      now,
    };
    // One confirmation waits per payment; while one runs already, this notification gets its own, so
    // what it says (a refund after the credit) is not lost to a lookup made before it came.
    const queued = await enqueueJob(trx, { ...job, uniqueKey: confirmKey(paymentId) });
    if (queued === null)
      await enqueueJob(trx, { ...job, uniqueKey: `${confirmKey(paymentId)}:n${kept.id}` });
    return answer(200, outcome);
  });
}
