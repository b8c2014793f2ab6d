import { describe, expect, it } from "vitest";
import { createI18n } from "~/i18n/i18n";
import { loadResources } from "~/i18n/resources";
import type { Locale } from "~/i18n/locales";
import englishCoins from "~/i18n/locales/en/coins.json";
import {
  englishLedgerReason,
  isLedgerReasonId,
  LEDGER_REASON_ENGLISH,
  LEDGER_REASON_KEYS,
  ledgerReason,
  ledgerReasonText,
  parseReasonParams,
  storedLedgerReason,
  type LedgerReason,
  type StoredLedgerReason,
  type TranslateReason,
} from "./ledger-reason";

/** A `t` of the coins namespace in one language, as the pages use it. */
async function translator(locale: Locale): Promise<TranslateReason> {
  const i18n = await createI18n(locale, await loadResources(locale));
  const t = i18n.getFixedT(null, "coins");
  return (key, params) => t(key, params);
}

/** A row as postLedgerEntry writes it for a reason with a key. */
function stored(reason: LedgerReason): StoredLedgerReason {
  return storedLedgerReason({
    reason: englishLedgerReason(reason),
    reason_key: reason.id,
    reason_params: JSON.stringify(reason.params),
  });
}

const FSI = "\u2068";
const PDI = "\u2069";
/** Arabic wraps every value in isolates (app/i18n/i18n.ts); the words around them are what we check. */
const plain = (text: string) => text.replaceAll(FSI, "").replaceAll(PDI, "");

const order = ledgerReason("orderPayment", { id: 1, product: "SAMP Premium" });
const renewal = ledgerReason("renewal", { service: "SAMP Premium" });
const refund = ledgerReason("orderRefund", { id: 7, reason: "Out of stock" });
const purchase = ledgerReason("ticketPurchase", { id: 12, subject: "Buy coins" });
const purchaseNote = ledgerReason("ticketPurchaseNote", {
  id: 12,
  subject: "Buy coins",
  note: "CashPlus 0042",
});

describe("ledger reasons in the reader's language", () => {
  it("renders in English as the reasons were written before", async () => {
    const t = await translator("en");
    expect(ledgerReasonText(stored(order), t)).toBe("Order #1: SAMP Premium");
    expect(ledgerReasonText(stored(renewal), t)).toBe("Renewal of SAMP Premium");
    expect(ledgerReasonText(stored(refund), t)).toBe("Order #7 rejected: Out of stock");
    expect(ledgerReasonText(stored(purchase), t)).toBe("Ticket #12: Buy coins");
    expect(ledgerReasonText(stored(purchaseNote), t)).toBe("Ticket #12: Buy coins (CashPlus 0042)");
    expect(ledgerReasonText(stored(ledgerReason("seedAdmin")), t)).toBe("Seed admin coins");
  });

  it("renders in French", async () => {
    const t = await translator("fr");
    expect(ledgerReasonText(stored(order), t)).toBe("Commande n° 1 : SAMP Premium");
    expect(ledgerReasonText(stored(renewal), t)).toBe("Renouvellement de SAMP Premium");
    expect(ledgerReasonText(stored(refund), t)).toBe("Commande n° 7 refusée : Out of stock");
    expect(ledgerReasonText(stored(purchase), t)).toBe("Ticket n° 12 : Buy coins");
    expect(ledgerReasonText(stored(ledgerReason("legacyBalance")), t)).toBe(
      "Solde repris de l'ancienne boutique",
    );
  });

  it("renders in Arabic, each value isolated so a Latin name keeps its order", async () => {
    const t = await translator("ar");
    const text = ledgerReasonText(stored(order), t);
    expect(text).toContain(`${FSI}SAMP Premium${PDI}`);
    expect(plain(text)).toBe("الطلب رقم 1: SAMP Premium");
    expect(plain(ledgerReasonText(stored(renewal), t))).toBe("تجديد SAMP Premium");
    expect(plain(ledgerReasonText(stored(refund), t))).toBe("رُفض الطلب رقم 7: Out of stock");
    expect(plain(ledgerReasonText(stored(purchaseNote), t))).toBe(
      "التذكرة رقم 12: Buy coins (CashPlus 0042)",
    );
  });

  it("shows a row written before reasons had keys, or an admin's own words, as written", async () => {
    for (const locale of ["en", "fr", "ar"] as const) {
      const t = await translator(locale);
      const old = storedLedgerReason({
        reason: "Order #1: SAMP Premium",
        reason_key: null,
        reason_params: null,
      });
      expect(ledgerReasonText(old, t)).toBe("Order #1: SAMP Premium");
      // A key this version does not know, or values that cannot be read: the text, never a raw key.
      for (const [key, params] of [
        ["somethingNew", "{}"],
        ["renewal", "not json"],
        ["renewal", "[1,2]"],
        ["renewal", '{"service":{"nested":true}}'],
        ["toString", "{}"],
      ] as const) {
        const row = storedLedgerReason({
          reason: "Written text",
          reason_key: key,
          reason_params: params,
        });
        expect(ledgerReasonText(row, t)).toBe("Written text");
      }
    }
  });
});

describe("the English written beside the key", () => {
  it("is the English catalogue's message, filled in", () => {
    expect(englishCoins.reasons).toEqual(
      Object.fromEntries(
        Object.entries(LEDGER_REASON_KEYS).map(([id]) => [
          id,
          LEDGER_REASON_ENGLISH[id as keyof typeof LEDGER_REASON_KEYS],
        ]),
      ),
    );
    for (const [id, key] of Object.entries(LEDGER_REASON_KEYS)) expect(key).toBe(`reasons.${id}`);
    expect(englishLedgerReason(order)).toBe("Order #1: SAMP Premium");
    expect(englishLedgerReason(purchaseNote)).toBe("Ticket #12: Buy coins (CashPlus 0042)");
    // A value a message names but the caller did not give stays visible rather than vanishing.
    expect(englishLedgerReason(ledgerReason("renewal"))).toBe("Renewal of {{service}}");
  });

  it("reads stored values back only as an object of strings and numbers", () => {
    expect(parseReasonParams('{"id":1,"product":"SAMP"}')).toEqual({ id: 1, product: "SAMP" });
    expect(parseReasonParams("{}")).toEqual({});
    for (const bad of [null, undefined, "", "null", "3", '"x"', "[]", '{"a":null}', "{"])
      expect(parseReasonParams(bad), String(bad)).toBeNull();
  });

  it("knows a key only as the text of one of its reasons", () => {
    expect(isLedgerReasonId("renewal")).toBe(true);
    // An array of one key reads as that key where an object's keys are looked up: not a key.
    for (const bad of [["renewal"], "toString", "Renewal", "", null, undefined, 1])
      expect(isLedgerReasonId(bad), String(bad)).toBe(false);
  });
});
