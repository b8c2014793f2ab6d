import { describe, expect, it } from "vitest";
import { slugWords as slugify } from "~/domain/catalogue/catalogue-admin";
import { legacyProductType } from "./map-products";
import {
  legacyBillingCycle,
  legacyOrderStatus,
  legacyRole,
  legacyServiceStatus,
} from "./map-values";

describe("mapping old values", () => {
  it("recognises an admin by role or by isAdmin", () => {
    expect(legacyRole({ role: "admin", isAdmin: null })).toBe("admin");
    expect(legacyRole({ role: " Admin ", isAdmin: false })).toBe("admin");
    expect(legacyRole({ role: "user", isAdmin: true })).toBe("admin");
    expect(legacyRole({ role: null, isAdmin: true })).toBe("admin");
    expect(legacyRole({ role: "user", isAdmin: false })).toBe("user");
    expect(legacyRole({ role: "moderator", isAdmin: null })).toBe("user");
  });

  it("maps service types, falling back on the category and the name", () => {
    expect(legacyProductType("samp", null, "x")).toBe("samp");
    expect(legacyProductType("SA-MP", null, "x")).toBe("samp");
    expect(legacyProductType("MTA:SA", null, "x")).toBe("mta");
    expect(legacyProductType(null, "VPS Hosting", "Premium")).toBe("vps");
    expect(legacyProductType(null, "Game Hosting", "MTA Professional")).toBe("mta");
    expect(legacyProductType("minecraft", "Game Hosting", "Craft")).toBe("game");
  });

  it("keeps an order's status when it maps, else pending", () => {
    expect(legacyOrderStatus("pending")).toEqual({ status: "pending", unknown: null });
    expect(legacyOrderStatus("Approved")).toEqual({ status: "approved", unknown: null });
    expect(legacyOrderStatus("cancelled")).toEqual({ status: "rejected", unknown: null });
    expect(legacyOrderStatus("processing")).toEqual({ status: "pending", unknown: "processing" });
    expect(legacyOrderStatus(null)).toEqual({ status: "pending", unknown: null });
  });

  it("maps user service statuses; an unknown one comes in suspended", () => {
    expect(legacyServiceStatus("active").status).toBe("active");
    expect(legacyServiceStatus("suspended").status).toBe("suspended");
    expect(legacyServiceStatus("terminated").status).toBe("terminated");
    expect(legacyServiceStatus("expired").status).toBe("active");
    expect(legacyServiceStatus("weird")).toEqual({ status: "suspended", unknown: "weird" });
  });

  it("maps billing cycles", () => {
    expect(legacyBillingCycle("annually")).toBe("annual");
    expect(legacyBillingCycle("semi-annual")).toBe("semiannual");
    expect(legacyBillingCycle("Quarterly")).toBe("quarterly");
    expect(legacyBillingCycle(null)).toBe("monthly");
  });

  it("makes slugs that match the catalogue's", () => {
    expect(slugify("SAMP Starter")).toBe("samp-starter");
    expect(slugify("  VPS — Premium!! ")).toBe("vps-premium");
    expect(slugify("Économie")).toBe("economie");
  });
});
