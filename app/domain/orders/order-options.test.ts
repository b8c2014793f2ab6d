import { describe, expect, it } from "vitest";
import { SEED_PRODUCTS } from "~/domain/catalogue/catalogue-seed.server";
import { prefillValues, slotChoicesFor } from "./order-options";
import { orderPrefillSchema, orderUrlWith } from "./order-options.schemas";

const plan = (slug: string) => {
  const seed = SEED_PRODUCTS.find((product) => product.slug === slug)!;
  return { type: seed.type, specs: { slots: seed.slots } };
};

describe("slotChoicesFor", () => {
  it("offers what each plan card promises as the default and the largest choice", () => {
    expect(slotChoicesFor(plan("samp-starter"))).toEqual({
      choices: [25, 50, 100, 150],
      defaultSlots: 150,
    });
    expect(slotChoicesFor(plan("samp-premium"))).toEqual({
      choices: [25, 50, 100, 200, 500],
      defaultSlots: 500,
    });
    expect(slotChoicesFor(plan("samp-ultimate"))).toEqual({
      choices: [25, 50, 100, 200, 500, 1000],
      defaultSlots: 1000,
    });
    expect(slotChoicesFor(plan("mta-starter"))).toEqual({
      choices: [25, 50, 75],
      defaultSlots: 75,
    });
    expect(slotChoicesFor(plan("game-basic"))).toEqual({ choices: [25, 50], defaultSlots: 50 });
    expect(slotChoicesFor(plan("game-pro"))?.defaultSlots).toBe(250);
  });

  it("gives a VPS no slots, and a game plan saved without a count the spec's list", () => {
    expect(slotChoicesFor(plan("vps-entry"))).toBeNull();
    for (const slots of [null, 0, -5])
      expect(slotChoicesFor({ type: "samp", specs: { slots } }), String(slots)).toEqual({
        choices: [25, 50, 100, 200],
        defaultSlots: 50,
      });
  });

  it("never offers more than the plan promises", () => {
    for (const seed of SEED_PRODUCTS) {
      const slots = slotChoicesFor({ type: seed.type, specs: { slots: seed.slots } });
      if (!slots) continue;
      expect(Math.max(...slots.choices), seed.slug).toBe(seed.slots);
      expect(slots.choices).toEqual([...slots.choices].sort((a, b) => a - b));
    }
  });
});

describe("the way back to an order", () => {
  it("carries the plan and every choice in the order URL", () => {
    const choices = {
      productId: "2",
      billingCycle: "quarterly",
      location: "Frankfurt",
      ddosProtection: "no",
      playerSlots: "100",
      backup: "premium",
      serverName: "Rachid RP",
      voucherCode: "WELCOME10",
    };
    const url = orderUrlWith({ ...choices, idempotencyKey: "not carried", shownPrices: "2:450" });
    expect(url).toBe(
      "/order?product=2&billingCycle=quarterly&location=Frankfurt&ddosProtection=no&playerSlots=100&backup=premium&serverName=Rachid+RP&voucherCode=WELCOME10",
    );
    const back = new URL(url, "http://x");
    const prefill = orderPrefillSchema.parse(Object.fromEntries(back.searchParams));
    expect(prefillValues(prefill)).toEqual(choices);
  });

  it("drops what it cannot read rather than refusing a link", () => {
    expect(
      orderUrlWith({
        productId: "-1",
        billingCycle: "weekly",
        playerSlots: "lots",
        backup: "tape",
        serverName: "x".repeat(65),
        location: "",
      }),
    ).toBe("/order");
    expect(orderPrefillSchema.parse({ product: "abc", ddosProtection: "maybe" })).toEqual({});
    expect(orderUrlWith({})).toBe("/order");
    expect(prefillValues({})).toStrictEqual({});
    // Texts are trimmed, and a blank one is no choice.
    expect(
      orderPrefillSchema.parse({
        location: "  fr  ",
        serverName: " My RP ",
        voucherCode: " w10 ",
        ddosProtection: "yes",
      }),
    ).toEqual({ location: "fr", serverName: "My RP", voucherCode: "w10", ddosProtection: "yes" });
    expect(orderPrefillSchema.parse({ location: "  ", serverName: " ", voucherCode: " " })).toEqual(
      {},
    );
  });
});
