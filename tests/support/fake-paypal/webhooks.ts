import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";

// The fake PayPal's notifications: events shaped as PayPal's (id, event_type, resource_type, summary,
// resource, links), posted to the webhook address with the five PAYPAL-* transmission headers, and
// checked by its `verify-webhook-signature`. PayPal signs with its RSA key over
// `<transmission id>|<time>|<webhook id>|<CRC32 of the body>`; the fake signs the same fields with an
// HMAC key only it holds, so nothing but the fake itself can say a notification is genuine, as with
// PayPal. A delivery not answered 2xx is kept and sent again when the test calls `redeliver()`, up to
// PayPal's 25 attempts; the fake has no clock of its own.

/** How the next notifications travel. */
export type DeliveryMode =
  /** Posted once. */
  | "normal"
  /** Posted twice at once, each transmission with its own id and signature (the same event id). */
  | "twice"
  /** Kept until the test calls `release` (so it can arrive late, after the return, or out of order). */
  | "held"
  /** Never posted (a notification lost for good). */
  | "dropped"
  /** Posted with a signature the fake never made: `verify-webhook-signature` answers FAILURE. */
  | "forged";

/** PayPal retries a delivery not answered 2xx up to 25 times (over 3 days). */
export const MAX_DELIVERY_ATTEMPTS = 25;

export const FAKE_AUTH_ALGO = "SHA256withRSA";

export interface FakeWebhookEvent {
  id: string;
  event_version: string;
  create_time: string;
  resource_type: string;
  resource_version: string;
  event_type: string;
  summary: string;
  resource: Record<string, unknown>;
  links: { href: string; rel: string; method: string }[];
}

export interface Transmission {
  headers: Record<string, string>;
  /** The HTTP status our webhook answered, null when no answer came (connection refused…). */
  status: number | null;
}

export interface FakeDelivery {
  event: FakeWebhookEvent;
  /** The body as posted (JSON of `event`). */
  body: string;
  mode: DeliveryMode;
  /** held: waiting for `release`; failing: not yet answered 2xx, sent again on `redeliver`. */
  state: "held" | "dropped" | "delivered" | "failing" | "gaveUp";
  transmissions: Transmission[];
}

export interface VerifyRequest {
  auth_algo?: unknown;
  cert_url?: unknown;
  transmission_id?: unknown;
  transmission_sig?: unknown;
  transmission_time?: unknown;
  webhook_id?: unknown;
  webhook_event?: unknown;
}

/** A fixed moment: the fake reads no clock, and nothing checks PayPal's times. */
const TRANSMISSION_TIME = "2026-12-01T10:00:00Z";

export class WebhookSender {
  readonly deliveries: FakeDelivery[] = [];
  url: string | null = null;
  mode: DeliveryMode | ((event: FakeWebhookEvent) => DeliveryMode) = "normal";
  private readonly key = randomBytes(32);
  private readonly underWay = new Set<Promise<void>>();
  private count = 0;

  constructor(
    private readonly apiUrl: () => string,
    private readonly webhookId: () => string,
  ) {}

  certUrl(): string {
    return `${this.apiUrl()}/v1/notifications/certs/CERT-360caa42-fca2a594-fake`;
  }

  /** Makes the event and sends it as the current mode says (nothing without a webhook address). */
  emit(
    eventType: string,
    resourceType: string,
    summary: string,
    resource: Record<string, unknown>,
  ) {
    this.count += 1;
    const id = `WH-${String(this.count).padStart(4, "0")}${randomBytes(6).toString("hex").toUpperCase()}`;
    const base = this.apiUrl();
    const event: FakeWebhookEvent = {
      id,
      event_version: "1.0",
      create_time: TRANSMISSION_TIME,
      resource_type: resourceType,
      resource_version: "2.0",
      event_type: eventType,
      summary,
      resource,
      links: [
        { href: `${base}/v1/notifications/webhooks-events/${id}`, rel: "self", method: "GET" },
        {
          href: `${base}/v1/notifications/webhooks-events/${id}/resend`,
          rel: "resend",
          method: "POST",
        },
      ],
    };
    if (!this.url) return null;
    const mode = typeof this.mode === "function" ? this.mode(event) : this.mode;
    const delivery: FakeDelivery = {
      event,
      body: JSON.stringify(event),
      mode,
      state: mode === "held" ? "held" : mode === "dropped" ? "dropped" : "failing",
      transmissions: [],
    };
    this.deliveries.push(delivery);
    if (mode === "normal") this.track(this.transmit(delivery, true));
    if (mode === "forged") this.track(this.transmit(delivery, false));
    if (mode === "twice")
      this.track(
        Promise.all([this.transmit(delivery, true), this.transmit(delivery, true)]).then(() => {}),
      );
    return delivery;
  }

  /** Sends held deliveries now: the one given, or every held one in the order they were made. */
  release(which?: FakeDelivery | string): Promise<void> {
    const held = this.deliveries.filter(
      (delivery) =>
        delivery.state === "held" &&
        (which === undefined || delivery === which || delivery.event.id === which),
    );
    if (which !== undefined && held.length === 0)
      throw new Error(`No held notification ${String(which)}`);
    return held.reduce<Promise<void>>(
      (previous, delivery) =>
        previous.then(() => {
          delivery.state = "failing";
          return this.transmit(delivery, true);
        }),
      Promise.resolve(),
    );
  }

  /** Sends each delivery not yet answered 2xx once more, as PayPal's retry would (25 attempts at most). */
  async redeliver(): Promise<void> {
    for (const delivery of this.deliveries.filter((each) => each.state === "failing"))
      await this.transmit(delivery, delivery.mode !== "forged");
  }

  /** Resolves once every post under way has been answered. */
  async settled(): Promise<void> {
    while (this.underWay.size > 0) await Promise.all([...this.underWay]);
  }

  /** PayPal's answer to `verify-webhook-signature`: SUCCESS only for a transmission it made. */
  verify(request: VerifyRequest, configuredWebhookId: string): "SUCCESS" | "FAILURE" {
    const { transmission_id: id, transmission_time: time, transmission_sig: sig } = request;
    if (
      typeof id !== "string" ||
      typeof time !== "string" ||
      typeof sig !== "string" ||
      request.auth_algo !== FAKE_AUTH_ALGO ||
      request.cert_url !== this.certUrl() ||
      request.webhook_id !== configuredWebhookId
    )
      return "FAILURE";
    const expected = this.sign(
      id,
      time,
      configuredWebhookId,
      JSON.stringify(request.webhook_event),
    );
    return expected === sig ? "SUCCESS" : "FAILURE";
  }

  private sign(transmissionId: string, time: string, webhookId: string, body: string): string {
    const digest = createHash("sha256").update(body).digest("hex");
    return createHmac("sha256", this.key)
      .update(`${transmissionId}|${time}|${webhookId}|${digest}`)
      .digest("base64");
  }

  private track(promise: Promise<void>) {
    this.underWay.add(promise);
    void promise.finally(() => this.underWay.delete(promise));
  }

  private async transmit(delivery: FakeDelivery, genuine: boolean): Promise<void> {
    const url = this.url;
    if (!url) return;
    const transmissionId = randomUUID();
    const signature = genuine
      ? this.sign(transmissionId, TRANSMISSION_TIME, this.webhookId(), delivery.body)
      : randomBytes(256).toString("base64");
    const headers = {
      "PAYPAL-AUTH-ALGO": FAKE_AUTH_ALGO,
      "PAYPAL-CERT-URL": this.certUrl(),
      "PAYPAL-TRANSMISSION-ID": transmissionId,
      "PAYPAL-TRANSMISSION-SIG": signature,
      "PAYPAL-TRANSMISSION-TIME": TRANSMISSION_TIME,
    };
    const transmission: Transmission = { headers, status: null };
    delivery.transmissions.push(transmission);
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          ...headers,
          "Content-Type": "application/json",
          "User-Agent": "PayPal/AUHD-214.0-fake",
        },
        body: delivery.body,
      });
      await response.arrayBuffer();
      transmission.status = response.status;
    } catch {
      transmission.status = null;
    }
    const answered =
      transmission.status !== null && transmission.status >= 200 && transmission.status < 300;
    if (answered) delivery.state = "delivered";
    else if (delivery.state !== "delivered")
      delivery.state =
        delivery.transmissions.length >= MAX_DELIVERY_ATTEMPTS ? "gaveUp" : "failing";
  }
}
