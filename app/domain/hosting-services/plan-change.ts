import { labelKeys } from "~/lib/label-keys";
import type { Product } from "~/domain/catalogue/catalogue";
import { documentAmounts, type DocumentAmounts, type VatTerms } from "~/domain/invoices/invoices";
import { addMonths, BILLING_CYCLES, quote, type BillingCycle } from "~/domain/orders/orders";
import { expiryPassed, type HostingService, type ServiceStatus } from "./hosting-services";

// A change of plan's price (docs/self-service.md, ADR 58), pure: what moving a service to another plan
// of its type costs or gives back for the rest of its term, in integer cents. The confirmation, the
// charge and the tests all read it, so that what a customer is shown is what moves.

export const PLAN_CHANGE_DIRECTIONS = ["upgrade", "downgrade"] as const;
export type PlanChangeDirection = (typeof PLAN_CHANGE_DIRECTIONS)[number];
/** The confirmation's words for each way (services namespace). */
export const PLAN_CHANGE_DIRECTION_LABELS = labelKeys(
  "services",
  "planChange.directions",
  PLAN_CHANGE_DIRECTIONS,
);

/** A plan's limits as the catalogue writes them (the confirmation shows the new ones). */
export type PlanLimits = Product["specs"];

/** A plan as a change reads it: its product, name, monthly price and limits. */
export interface PlanOfChange {
  productId: number;
  name: string;
  /** The product's price for a month, as the catalogue has it now. */
  priceCents: number;
  limits: PlanLimits;
}

/**
 * A plan's price for one cycle as the order form prices it (`quote`: the months, less the cycle's
 * discount), without the order's options: the service keeps those, so only the plans' difference moves.
 */
export function planCyclePriceCents(productPriceCents: number, cycle: BillingCycle): number {
  return quote({ productPriceCents, cycle, backup: "none" }).subtotalCents;
}

/** Only a running service changes plan: active, and its term not over. */
export function canChangePlan(status: ServiceStatus, expiresAt: string, now: Date): boolean {
  return status === "active" && !expiryPassed(expiresAt, now);
}

/**
 * How much is left of what the service has paid for: the terms paid ahead in full (a service renewed
 * before its expiry holds more than one), and the term `now` falls in, as the milliseconds left of it
 * over its length. Terms are counted back from the expiry by the cycle's calendar months (the expiry
 * back one cycle is the running term's start), so a term paid ahead counts whole however long its
 * months are.
 */
export interface TermShare {
  wholeTerms: number;
  leftMs: number;
  termMs: number;
}

/** Terms counted back at most: a century of monthly terms, far beyond any service. */
const MAX_TERMS = 1_200;

export function termShare(expiresAt: string, cycle: BillingCycle, now: Date): TermShare {
  const months = BILLING_CYCLES[cycle].months;
  const at = now.getTime();
  const expiry = Date.parse(expiresAt);
  if (expiry <= at) return { wholeTerms: 0, leftMs: 0, termMs: 1 };
  let wholeTerms = 0;
  let end = expiry;
  let start = Date.parse(addMonths(expiresAt, -months));
  while (start > at && wholeTerms < MAX_TERMS) {
    wholeTerms += 1;
    end = start;
    start = Date.parse(addMonths(expiresAt, -months * (wholeTerms + 1)));
  }
  return { wholeTerms, leftMs: end - at, termMs: end - start };
}

/**
 * `differenceCents` (a cycle's difference, never negative) for what is left: each term paid ahead in
 * full, and the share left of the running one, rounded down to the cent. In BigInt: a year's
 * milliseconds times a large price is past what a double holds exactly. One rounding for both ways, of
 * the same amount (ADR 58): an upgrade's charge rounds in the customer's favour, and a downgrade's
 * credit rounds the same way, so that going down and back up at one moment never leaves the balance
 * higher than it was.
 */
export function proratedCents(differenceCents: number, share: TermShare): number {
  if (!Number.isSafeInteger(differenceCents) || differenceCents < 0)
    throw new RangeError("A plan change prorates a whole, non-negative number of cents");
  if (differenceCents === 0) return 0;
  const difference = BigInt(differenceCents);
  const ahead = difference * BigInt(share.wholeTerms);
  if (share.leftMs <= 0 || share.termMs <= 0) return Number(ahead);
  return Number(
    ahead + (difference * BigInt(Math.trunc(share.leftMs))) / BigInt(Math.trunc(share.termMs)),
  );
}

/** The service's prices once on the new plan: its own, moved by the plans' difference (never below 0). */
export function changedPrices(
  service: { cyclePriceCents: number; monthlyPriceCents: number; billingCycle: BillingCycle },
  from: Pick<PlanOfChange, "priceCents">,
  to: Pick<PlanOfChange, "priceCents">,
) {
  const cycleDelta =
    planCyclePriceCents(to.priceCents, service.billingCycle) -
    planCyclePriceCents(from.priceCents, service.billingCycle);
  const newCyclePriceCents = Math.max(0, service.cyclePriceCents + cycleDelta);
  const newMonthlyPriceCents = Math.max(
    0,
    service.monthlyPriceCents + (to.priceCents - from.priceCents),
  );
  return {
    newCyclePriceCents,
    newMonthlyPriceCents,
    /** What a cycle costs more (or, negative, less) once changed. */
    differenceCents: newCyclePriceCents - service.cyclePriceCents,
  };
}

/** What the customer confirms before a change moves anything, and what the change then moves. */
export interface PlanChangeQuote {
  serviceId: number;
  serverName: string;
  billingCycle: BillingCycle;
  from: PlanOfChange;
  to: PlanOfChange;
  /** upgrade: the customer pays `amountCents`; downgrade: they are credited it. */
  direction: PlanChangeDirection;
  previousCyclePriceCents: number;
  newCyclePriceCents: number;
  previousMonthlyPriceCents: number;
  newMonthlyPriceCents: number;
  /** The prorated difference, as prices are written (with VAT or without, as the settings say). */
  priceCents: number;
  /** Its figures: the price, the VAT and the total (a renewal's VAT terms). */
  amounts: DocumentAmounts;
  /** What moves: `amounts.totalCents`, charged or credited. */
  amountCents: number;
  /** The period it covers: from the change to the expiry, which stays. */
  fromAt: string;
  expiresAt: string;
  balanceCents: number;
  /** The balance once changed; null when an upgrade's charge is short (a balance never goes below 0). */
  balanceAfterCents: number | null;
  /** How much the balance lacks for an upgrade, in cents; 0 when it covers it (always for a downgrade). */
  missingCents: number;
}

/**
 * The change of `service` from plan `from` to plan `to` at `now`: the prices after, the prorated
 * difference with its VAT (`vat`, as a renewal adds it), the way it goes, and the balance after.
 */
export function planChangeQuote(input: {
  service: {
    id: number;
    serverName: string;
    billingCycle: BillingCycle;
    cyclePriceCents: number;
    monthlyPriceCents: number;
    expiresAt: string;
  };
  from: PlanOfChange;
  to: PlanOfChange;
  balanceCents: number;
  vat: VatTerms;
  now: Date;
}): PlanChangeQuote {
  const { service, from, to, balanceCents, vat, now } = input;
  const prices = changedPrices(service, from, to);
  const direction: PlanChangeDirection = prices.differenceCents >= 0 ? "upgrade" : "downgrade";
  const priceCents = proratedCents(
    Math.abs(prices.differenceCents),
    termShare(service.expiresAt, service.billingCycle, now),
  );
  const amounts = documentAmounts(priceCents, vat.rateBp, vat.pricesIncludeVat);
  const amountCents = amounts.totalCents;
  const missingCents = direction === "upgrade" ? Math.max(0, amountCents - balanceCents) : 0;
  return {
    serviceId: service.id,
    serverName: service.serverName,
    billingCycle: service.billingCycle,
    from,
    to,
    direction,
    previousCyclePriceCents: service.cyclePriceCents,
    newCyclePriceCents: prices.newCyclePriceCents,
    previousMonthlyPriceCents: service.monthlyPriceCents,
    newMonthlyPriceCents: prices.newMonthlyPriceCents,
    priceCents,
    amounts,
    amountCents,
    fromAt: now.toISOString(),
    expiresAt: service.expiresAt,
    balanceCents,
    balanceAfterCents:
      missingCents > 0
        ? null
        : direction === "upgrade"
          ? balanceCents - amountCents
          : balanceCents + amountCents,
    missingCents,
  };
}

/** Why a change of plan is refused (services namespace, with the renewal's shared ones). */
export type PlanChangeRefusal =
  /** Not the customer's service. */
  | { ok: false; kind: "notFound"; error: "services.errors.notFound" }
  /** Not active, or its term is over: renew it first (or it has ended). */
  | { ok: false; kind: "conflict"; error: "services.planChange.errors.cannotChange" }
  /** No such plan, hidden, the service's own, or no path the admin allows leads there. */
  | { ok: false; kind: "invalid"; error: "services.planChange.errors.notAllowed" }
  /** A plan of another type: a SA-MP server does not become a VPS. */
  | { ok: false; kind: "invalid"; error: "services.planChange.errors.otherType" }
  /** A server on the game panel cannot take this plan (not made on the panel, or other ports). */
  | { ok: false; kind: "conflict"; error: "services.planChange.errors.notForThisServer" }
  /** The amount is not the one the confirmation showed: the prices or the VAT moved since. */
  | { ok: false; kind: "conflict"; error: "services.planChange.errors.amountChanged" }
  /** The coins credited back would take the balance past its maximum. */
  | { ok: false; kind: "conflict"; error: "coins.errors.balanceTooHigh" }
  /** The balance, as it is now, does not cover an upgrade: what is missing, and what it costs. */
  | {
      ok: false;
      kind: "conflict";
      error: "orders.errors.insufficientCoins";
      missingCents: number;
      totalCents: number;
    };

/** A plan the customer may choose, with what choosing it would cost or give back now. */
export interface PlanChoice extends PlanOfChange {
  direction: PlanChangeDirection;
  amountCents: number;
  newCyclePriceCents: number;
}

/** What the change-of-plan page shows of one of the customer's services (`loadPlanChangePage`). */
export type PlanChangePageData =
  | {
      ok: true;
      service: HostingService;
      /** The plan it is on, as the catalogue has it now (null: a service set up without one). */
      current: PlanOfChange | null;
      /** Whether it may change now (active, its term not over). */
      canChange: boolean;
      choices: PlanChoice[];
      balanceCents: number;
      /** The confirmation of the plan asked for (`?to=`), or why it cannot be. */
      confirmation?: { ok: true; quote: PlanChangeQuote } | PlanChangeRefusal;
    }
  | { ok: false; kind: "notFound"; error: "services.errors.notFound" };

/** The page of a service's change of plan; with a plan, its confirmation (nothing moves yet). */
export function planChangePath(serviceId: number, toProductId?: number): string {
  const base = `/dashboard/services/${serviceId}/plan`;
  return toProductId ? `${base}?to=${toProductId}#confirm` : base;
}
