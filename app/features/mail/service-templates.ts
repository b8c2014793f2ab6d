import { COINS_PAGE } from "~/components/layout/coin-dialog";
import { servicesTabPath } from "~/domain/hosting-services/hosting-services";
import type { MailKind } from "~/domain/mail/mail";
import type { BillingCycle } from "~/domain/orders/orders";
import { formatCoins } from "~/lib/money";
import { cents, formatWhen, text } from "./mail-format";
import type { MailContent, MailContext } from "./mail-templates";

// A customer's messages about one of their services (docs/mail.md "A service's messages"): the
// lifecycle's (reminders, a short balance, suspension, the termination warning, termination), a
// renewal's receipt, the server made on the game panel once it is installed, and the notice of a server
// offline a while (docs/server-control.md), which says why it came and how to stop it. Each names the service
// and links to the services tab; the lifecycle's say when the next step comes and what renewing costs,
// with the way to renew or to add coins. Values a row queued by an older version lacks (a date, the
// price) leave their sentence out, or the message as it was then.

type ServiceKind = Extract<
  MailKind,
  | "serviceExpiring"
  | "serviceRenewalShort"
  | "serviceRenewed"
  | "serviceSuspended"
  | "serviceTerminationWarning"
  | "serviceTerminated"
  | "serviceReady"
  | "serverOffline"
>;

/** Each automatic reason's text, one key per kind (written out for the catalogue test). */
const SERVICE_TEXTS = {
  serviceSuspended: {
    expired: "serviceSuspended.bodyExpired",
    admin: "serviceSuspended.bodyAdmin",
  },
  serviceTerminated: {
    expired: "serviceTerminated.bodyExpired",
    admin: "serviceTerminated.bodyAdmin",
    // The customer's own cancellation: at the end of the term, or refunded within 14 days.
    cancelled: "serviceTerminated.bodyCancelled",
    refunded: "serviceTerminated.bodyRefunded",
  },
} as const;

/** Who or what ended a service, as its termination's message says it. */
function endedBy(reason: unknown): keyof typeof SERVICE_TEXTS.serviceTerminated {
  return reason === "admin" || reason === "cancelled" || reason === "refunded" ? reason : "expired";
}

/** What one renewal runs for, in words: "one month", "three months"… (written out for the test). */
const PERIODS = {
  monthly: "service.periods.monthly",
  quarterly: "service.periods.quarterly",
  semiannual: "service.periods.semiannual",
  annual: "service.periods.annual",
} as const satisfies Record<BillingCycle, string>;

/** What renewing costs, from a message's values (`renewalValues`), or null in a message without it. */
function renewalTermsOf(params: Record<string, unknown>) {
  const price = params.priceCents;
  const cycle = params.cycle;
  if (typeof price !== "number" || typeof cycle !== "string" || !Object.hasOwn(PERIODS, cycle))
    return null;
  return {
    priceCents: price,
    period: PERIODS[cycle as BillingCycle],
    missingCents: cents(params.missingCents),
  };
}

/** A moment of the message's values in the reader's words, or null when it has none. */
function when(value: unknown, context: MailContext): string | null {
  return formatWhen(value, context) || null;
}

/** The services tab, or the renewal's confirmation of the service the values name. */
function servicesLink(params: Record<string, unknown>, context: MailContext, renew: boolean) {
  const id = typeof params.serviceId === "number" && renew ? params.serviceId : undefined;
  return `${context.baseUrl}${servicesTabPath(id)}`;
}

/** A server's ports beyond its address (MTA's server-list and HTTP ports), in a sentence; none for one port. */
function portsLine(value: unknown, context: MailContext): string[] {
  if (!value || typeof value !== "object") return [];
  const { game, announce, http } = value as Record<string, unknown>;
  if (typeof game !== "number" || (typeof announce !== "number" && typeof http !== "number"))
    return [];
  return [
    context.t("serviceReady.ports", {
      game,
      announce: text(announce) || "-",
      http: text(http) || "-",
    }),
  ];
}

/** The server is installed: where it answers, how to sign in to the game panel, where its settings are. */
function readyContent(service: string, params: Record<string, unknown>, context: MailContext) {
  const { t } = context;
  const address = text(params.address);
  const panelLink = text(params.panelLink);
  return {
    paragraphs: [
      address
        ? t("serviceReady.body", { service, address })
        : t("serviceReady.bodyNoAddress", { service }),
      ...portsLine(params.ports, context),
      t("serviceReady.signIn"),
      t(params.secretsDrawn === true ? "serviceReady.secretsDrawn" : "serviceReady.secrets"),
    ],
    // Without the panel's page (none connected when it was told), the services tab is the button.
    button: panelLink ? { label: t("serviceReady.button"), href: panelLink } : undefined,
  };
}

/**
 * What renewing costs and, when the balance lacks coins, by how much; the button to the renewal's
 * confirmation, or to adding coins first.
 */
function renewalPart(params: Record<string, unknown>, context: MailContext) {
  const { t, locale } = context;
  const terms = renewalTermsOf(params);
  if (!terms) return null;
  const short = terms.missingCents > 0;
  return {
    paragraphs: [
      t("service.renewCost", {
        amount: formatCoins(terms.priceCents, locale),
        period: t(terms.period),
      }),
      ...(short ? [t("service.short", { amount: formatCoins(terms.missingCents, locale) })] : []),
    ],
    button: short
      ? { label: t("service.addCoins"), href: `${context.baseUrl}${COINS_PAGE}` }
      : { label: t("service.renewNow"), href: servicesLink(params, context, true) },
  };
}

/** Suspended for its expiry: since when, until when it can be saved, what that costs. */
function suspendedContent(service: string, params: Record<string, unknown>, context: MailContext) {
  const { t } = context;
  const suspendedAt = when(params.suspendedAt, context);
  const terminatesAt = when(params.terminatesAt, context);
  const renewal = renewalPart(params, context);
  return {
    paragraphs: [
      suspendedAt
        ? t("serviceSuspended.bodyExpiredOn", { service, date: suspendedAt })
        : t(SERVICE_TEXTS.serviceSuspended.expired, { service }),
      ...(terminatesAt ? [t("serviceSuspended.terminates", { date: terminatesAt })] : []),
      ...(renewal?.paragraphs ?? []),
    ],
    button: renewal?.button,
  };
}

/** A short balance: what renewing costs and lacks, when the term ends, when it is suspended and ended. */
function shortContent(service: string, params: Record<string, unknown>, context: MailContext) {
  const { t, locale } = context;
  const amount = formatCoins(cents(params.missingCents), locale);
  const expiresAt = formatWhen(params.expiresAt, context);
  const terms = renewalTermsOf(params);
  const suspendsAt = when(params.suspendsAt, context);
  const terminatesAt = when(params.terminatesAt, context);
  if (!terms || !suspendsAt || !terminatesAt)
    return { paragraphs: [t("serviceRenewalShort.body", { service, amount, date: expiresAt })] };
  return {
    paragraphs: [
      t("serviceRenewalShort.bodyCost", {
        service,
        amount,
        price: formatCoins(terms.priceCents, locale),
        period: t(terms.period),
      }),
      t(params.expired === true ? "serviceRenewalShort.ended" : "serviceRenewalShort.ends", {
        date: expiresAt,
      }),
      t("serviceRenewalShort.deadlines", { suspendsAt, terminatesAt }),
      t("serviceRenewalShort.next"),
    ],
    button: { label: t("service.addCoins"), href: `${context.baseUrl}${COINS_PAGE}` },
  };
}

/** A service's message; a renewal's document is added by the caller (mailContent). */
export function serviceContent(
  kind: ServiceKind,
  params: Record<string, unknown>,
  context: MailContext,
): MailContent {
  const { t, locale } = context;
  const service = text(params.service);
  // The days a reminder or a warning counts (its subject's plural).
  const count = typeof params.days === "number" ? params.days : 0;
  const tab = { label: t("service.button"), href: servicesLink(params, context, false) };
  const byAdmin = params.reason === "admin" ? "admin" : "expired";
  /** The message; with its own button (renew, add coins, the panel), the services tab comes under it. */
  const content = (
    subject: string,
    heading: string,
    body: { paragraphs: string[]; button?: { label: string; href: string } },
  ): MailContent => ({
    subject,
    heading,
    paragraphs: body.paragraphs,
    button: body.button ?? tab,
    ...(body.button ? { more: tab } : {}),
    audience: "customer",
  });
  switch (kind) {
    case "serviceExpiring":
      return content(
        t("serviceExpiring.subject", { service, count }),
        t("serviceExpiring.heading"),
        {
          paragraphs: [
            t("serviceExpiring.body", { service, date: formatWhen(params.expiresAt, context) }),
          ],
        },
      );
    case "serviceRenewalShort":
      return content(
        t("serviceRenewalShort.subject", {
          service,
          amount: formatCoins(cents(params.missingCents), locale),
        }),
        t("serviceRenewalShort.heading"),
        shortContent(service, params, context),
      );
    case "serviceRenewed": {
      const date = formatWhen(params.expiresAt, context);
      const values = { service, date, amount: formatCoins(cents(params.amountCents), locale) };
      return content(t("serviceRenewed.subject", values), t("serviceRenewed.heading"), {
        paragraphs: [
          params.automatic === true
            ? t("serviceRenewed.bodyAutomatic", values)
            : t("serviceRenewed.bodyManual", values),
          ...(params.reactivated === true ? [t("serviceRenewed.reactivated")] : []),
        ],
      });
    }
    case "serviceSuspended":
      return content(
        t("serviceSuspended.subject", { service }),
        t("serviceSuspended.heading"),
        byAdmin === "admin"
          ? { paragraphs: [t(SERVICE_TEXTS.serviceSuspended.admin, { service })] }
          : suspendedContent(service, params, context),
      );
    case "serviceTerminationWarning":
      return content(
        t("serviceTerminationWarning.subject", { service, count }),
        t("serviceTerminationWarning.heading"),
        {
          paragraphs: [
            t("serviceTerminationWarning.body", {
              service,
              date: formatWhen(params.terminatesAt, context),
            }),
          ],
        },
      );
    case "serviceTerminated":
      return content(t("serviceTerminated.subject", { service }), t("serviceTerminated.heading"), {
        paragraphs: [t(SERVICE_TEXTS.serviceTerminated[endedBy(params.reason)], { service })],
      });
    case "serviceReady":
      return content(
        t("serviceReady.subject", { service }),
        t("serviceReady.heading"),
        readyContent(service, params, context),
      );
    case "serverOffline":
      return content(t("serverOffline.subject", { service }), t("serverOffline.heading"), {
        paragraphs: [
          t("serverOffline.body", {
            service,
            date: formatWhen(params.offlineSince, context),
            count: typeof params.minutes === "number" ? params.minutes : 10,
          }),
          t("serverOffline.next"),
          t("serverOffline.why"),
        ],
      });
  }
}
