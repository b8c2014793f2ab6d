import { describe, expect, it, vi } from "vitest";
import { decideActivation, trustVerdict, type TrustFacts } from "./order-approval";

const facts = (overrides: Partial<TrustFacts> = {}): TrustFacts => ({
  emailVerified: true,
  hasApprovedTopUp: false,
  hasApprovedOrder: false,
  ...overrides,
});

describe("the trust rule", () => {
  it("trusts a verified address with an earlier payment, or an earlier approved order, or both", () => {
    expect(trustVerdict(facts({ hasApprovedTopUp: true }))).toEqual({ trusted: true });
    expect(trustVerdict(facts({ hasApprovedOrder: true }))).toEqual({ trusted: true });
    expect(trustVerdict(facts({ hasApprovedTopUp: true, hasApprovedOrder: true }))).toEqual({
      trusted: true,
    });
  });

  it("does not trust a first purchase, even from a verified address", () => {
    expect(trustVerdict(facts())).toEqual({ trusted: false, reason: "firstPurchase" });
  });

  it("does not trust an unverified address, whatever was paid before, and says so first", () => {
    for (const paid of [facts(), facts({ hasApprovedTopUp: true, hasApprovedOrder: true })])
      expect(trustVerdict({ ...paid, emailVerified: false })).toEqual({
        trusted: false,
        reason: "unverified",
      });
  });
});

describe("the decision as an order is placed", () => {
  const asked = (trusted: TrustFacts, room: boolean) => ({
    trust: vi.fn(() => Promise.resolve(trusted)),
    room: vi.fn(() => Promise.resolve(room)),
  });

  it("approves a plan that activates when paid, for a trusted customer, with room", async () => {
    expect(await decideActivation(true, asked(facts({ hasApprovedOrder: true }), true))).toEqual({
      approve: true,
    });
  });

  it("leaves a plan that does not activate when paid to an admin, asking nothing", async () => {
    const facts_ = asked(facts({ hasApprovedTopUp: true }), true);
    expect(await decideActivation(false, facts_)).toEqual({
      approve: false,
      reason: "planApproval",
    });
    expect(facts_.trust).not.toHaveBeenCalled();
    expect(facts_.room).not.toHaveBeenCalled();
  });

  it("says why an untrusted customer waits, without taking the panel's room", async () => {
    const unverified = asked(facts({ emailVerified: false, hasApprovedTopUp: true }), true);
    expect(await decideActivation(true, unverified)).toEqual({
      approve: false,
      reason: "unverified",
    });
    const first = asked(facts(), true);
    expect(await decideActivation(true, first)).toEqual({
      approve: false,
      reason: "firstPurchase",
    });
    expect(unverified.room).not.toHaveBeenCalled();
    expect(first.room).not.toHaveBeenCalled();
  });

  it("waits for an admin when the panel has no room right now", async () => {
    expect(await decideActivation(true, asked(facts({ hasApprovedTopUp: true }), false))).toEqual({
      approve: false,
      reason: "noRoom",
    });
  });
});
