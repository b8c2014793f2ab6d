import { describe, expect, it } from "vitest";
import {
  KEPT_MAIL_COUNTED,
  SETUP_ITEM_IDS,
  SETUP_ITEM_PATHS,
  setupChecklist,
  setupItems,
  twoFactorGap,
  type SetupFacts,
  type SetupItemId,
} from "./setup-checklist";

/** A new shop as it starts: nothing set up. */
const FRESH: SetupFacts = {
  seller: { name: "Hostfront", address: "", taxId: "" },
  enabledPaymentMethods: 0,
  mailEnabled: false,
  keptMail: 0,
  panelAnswered: false,
  twoFactorRoles: [],
  membersWithoutTwoFactor: 1,
  productsOnSale: 12,
  freeProductsOnSale: 0,
  sampleProductsOnSale: 12,
};

/** Everything set up. */
const READY: SetupFacts = {
  seller: {
    name: "Atlas Hosting SARL",
    address: "12 Rue Allal Ben Abdallah\nCasablanca",
    taxId: "001234567000089",
  },
  enabledPaymentMethods: 1,
  mailEnabled: true,
  keptMail: 0,
  panelAnswered: true,
  twoFactorRoles: ["owner", "billing"],
  membersWithoutTwoFactor: 0,
  productsOnSale: 3,
  freeProductsOnSale: 0,
  sampleProductsOnSale: 0,
};

const doneOf = (facts: SetupFacts) =>
  Object.fromEntries(setupItems(facts).map((item) => [item.id, item.done]));
const itemOf = (facts: SetupFacts, id: SetupItemId) =>
  setupItems(facts).find((item) => item.id === id)!;

describe("the setup checklist", () => {
  it("lists every item of a new shop open, in order, each with the page where it is done", () => {
    const items = setupItems(FRESH);
    expect(items.map((item) => item.id)).toEqual([
      "company",
      "payments",
      "mail",
      "gamePanel",
      "twoFactor",
      "prices",
    ]);
    expect(items.every((item) => !item.done)).toBe(true);
    expect(items.map((item) => item.to)).toEqual([
      "/admin/settings#invoicing",
      "/admin/gateways",
      "/admin/mail",
      "/admin/settings/game-panel",
      "/admin/settings#security",
      "/admin/products",
    ]);
    expect(items.map((item) => item.message)).toEqual(
      SETUP_ITEM_IDS.map((id) => `dashboard.setup.titles.${id}`),
    );
    expect(setupChecklist(FRESH)).toEqual({ items, done: 0 });
  });

  it("is gone once every item is done", () => {
    expect(setupItems(READY).every((item) => item.done)).toBe(true);
    expect(setupChecklist(READY)).toBeNull();
  });

  it("counts what is done while something is left", () => {
    const checklist = setupChecklist({ ...READY, mailEnabled: false });
    expect(checklist?.done).toBe(5);
    expect(checklist?.items.filter((item) => !item.done).map((item) => item.id)).toEqual(["mail"]);
  });

  it("ticks each item by its own rule, and only that item", () => {
    // From a new shop, one fact at a time: exactly its item ticks.
    const cases: [SetupItemId, Partial<SetupFacts>][] = [
      ["company", { seller: READY.seller }],
      ["payments", { enabledPaymentMethods: 2 }],
      ["mail", { mailEnabled: true }],
      ["gamePanel", { panelAnswered: true }],
      ["twoFactor", { twoFactorRoles: ["owner", "billing"], membersWithoutTwoFactor: 0 }],
      ["prices", { sampleProductsOnSale: 0 }],
    ];
    for (const [id, change] of cases) {
      const done = doneOf({ ...FRESH, ...change });
      expect(done, id).toEqual(
        Object.fromEntries(SETUP_ITEM_IDS.map((each) => [each, each === id])),
      );
    }
    expect(Object.keys(SETUP_ITEM_PATHS)).toEqual([...SETUP_ITEM_IDS]);
  });

  it("asks for the seller's name, address and tax number, blanks not counting", () => {
    const company = (seller: Partial<SetupFacts["seller"]>) =>
      itemOf({ ...READY, seller: { ...READY.seller, ...seller } }, "company").done;
    expect(company({})).toBe(true);
    expect(company({ address: "" })).toBe(false);
    expect(company({ taxId: "  " })).toBe(false);
    expect(company({ name: "" })).toBe(false);
  });

  it("says how many messages are kept while mail is not sent", () => {
    expect(itemOf({ ...FRESH, keptMail: 3 }, "mail").details).toEqual([
      { kind: "keptMail", count: 3 },
    ]);
    expect(itemOf({ ...FRESH, keptMail: KEPT_MAIL_COUNTED }, "mail").details).toEqual([
      { kind: "keptMail", count: KEPT_MAIL_COUNTED },
    ]);
    // Counted no further than one past the limit: "more than 1,000".
    expect(itemOf({ ...FRESH, keptMail: KEPT_MAIL_COUNTED + 1 }, "mail").details).toEqual([
      { kind: "keptMailOver", limit: KEPT_MAIL_COUNTED },
    ]);
    expect(itemOf(FRESH, "mail").details).toEqual([]);
    expect(itemOf({ ...READY, keptMail: 3 }, "mail").details).toEqual([]);
  });

  it("wants two-factor sign-in required of Owner and Billing and set up by every member of them", () => {
    const twoFactor = (facts: Partial<SetupFacts>) => itemOf({ ...READY, ...facts }, "twoFactor");
    expect(twoFactor({ twoFactorRoles: [] })).toMatchObject({
      done: false,
      details: [{ kind: "twoFactorNotRequired", gap: "both" }],
    });
    // Each of the two missing is enough to keep it open, whatever else is required.
    expect(twoFactor({ twoFactorRoles: ["billing", "support", "technician"] })).toMatchObject({
      done: false,
      details: [{ kind: "twoFactorNotRequired", gap: "owner" }],
    });
    expect(twoFactor({ twoFactorRoles: ["owner"] })).toMatchObject({
      done: false,
      details: [{ kind: "twoFactorNotRequired", gap: "billing" }],
    });
    expect(twoFactor({ membersWithoutTwoFactor: 2 })).toMatchObject({
      done: false,
      details: [{ kind: "membersWithoutTwoFactor", count: 2 }],
    });
    expect(twoFactor({ twoFactorRoles: ["support"], membersWithoutTwoFactor: 1 }).details).toEqual([
      { kind: "twoFactorNotRequired", gap: "both" },
      { kind: "membersWithoutTwoFactor", count: 1 },
    ]);
    expect(twoFactor({})).toMatchObject({ done: true, details: [] });
    // Every role required (what an install that had the old switch on keeps) counts as well.
    expect(
      twoFactor({ twoFactorRoles: ["owner", "billing", "support", "technician"] }),
    ).toMatchObject({ done: true, details: [] });
  });

  it("names which of Owner and Billing may sign in without a second factor", () => {
    expect(twoFactorGap(["owner", "billing"])).toBeNull();
    expect(twoFactorGap(["technician", "billing", "owner"])).toBeNull();
    expect(twoFactorGap(["billing"])).toBe("owner");
    expect(twoFactorGap(["owner", "support"])).toBe("billing");
    expect(twoFactorGap([])).toBe("both");
    expect(twoFactorGap(["support", "technician"])).toBe("both");
  });

  it("wants something on sale, nothing free and no sample plan at its sample price", () => {
    const prices = (facts: Partial<SetupFacts>) => itemOf({ ...READY, ...facts }, "prices");
    expect(prices({ productsOnSale: 0 })).toMatchObject({
      done: false,
      details: [{ kind: "nothingOnSale" }],
    });
    expect(prices({ freeProductsOnSale: 1 })).toMatchObject({
      done: false,
      details: [{ kind: "freeProducts", count: 1 }],
    });
    expect(prices({ sampleProductsOnSale: 4, freeProductsOnSale: 2 }).details).toEqual([
      { kind: "freeProducts", count: 2 },
      { kind: "samplePrices", count: 4 },
    ]);
    expect(prices({})).toMatchObject({ done: true, details: [] });
  });
});
