import { describe, expect, it } from "vitest";
import {
  expiryOnDate,
  parseExpiryDate,
  renewalExpiry,
  renewalTermStart,
  serviceLabel,
} from "./hosting-services";
import {
  editServiceSchema,
  serviceActionSchema,
  serviceListQuerySchema,
} from "./hosting-services.schemas";

describe("the admin services list's query", () => {
  it("reads every filter, the sort and the page", () => {
    expect(
      serviceListQuerySchema.parse({
        q: "amrani",
        status: "suspended",
        type: "vps",
        within: "7",
        sort: "expires",
        dir: "asc",
        page: "3",
        edit: "12",
      }),
    ).toEqual({
      q: "amrani",
      status: "suspended",
      type: "vps",
      within: "7",
      sort: "expires",
      dir: "asc",
      page: 3,
      edit: 12,
    });
  });
  it("ignores what does not parse instead of failing", () => {
    expect(
      serviceListQuerySchema.parse({
        status: "gone",
        type: "boat",
        within: "8",
        sort: "; drop table",
        dir: "up",
        page: "-1",
        edit: "x",
      }),
    ).toEqual({ q: "", sort: "created", dir: "desc", page: 1 });
  });
});

describe("the expiry date an admin types", () => {
  it("takes real dates between 2000 and 2100 only", () => {
    expect(parseExpiryDate("2027-01-31")).toBe("2027-01-31");
    expect(parseExpiryDate(" 2028-02-29 ")).toBe("2028-02-29");
    for (const bad of ["2027-02-29", "2027-13-01", "2027-1-5", "1999-12-31", "2101-01-01", "", "x"])
      expect(parseExpiryDate(bad), bad).toBeNull();
  });
  it("keeps the time of day, and the exact expiry when the date is the same", () => {
    expect(expiryOnDate("2026-11-24T04:01:36.123Z", "2027-03-01")).toBe("2027-03-01T04:01:36.123Z");
    expect(expiryOnDate("2026-11-24T04:01:36.123Z", "2026-11-24")).toBe("2026-11-24T04:01:36.123Z");
  });
});

describe("the edit form", () => {
  const form = { serviceId: "4", name: " Name ", price: "4,50", expiresOn: "2030-01-01" };
  it("reads euros as exact cents and a blank note as none", () => {
    expect(editServiceSchema.parse({ ...form, adminNote: "   " })).toEqual({
      serviceId: 4,
      name: "Name",
      price: 450,
      expiresOn: "2030-01-01",
      adminNote: null,
    });
    expect(editServiceSchema.parse({ ...form, price: "0.10" }).price).toBe(10);
  });
  it("is one of the page's intents", () => {
    expect(serviceActionSchema.parse({ ...form, intent: "edit" })).toMatchObject({
      intent: "edit",
      price: 450,
    });
  });
  it("reads a blank price of the add form as the product's", () => {
    const add = serviceActionSchema.parse({ intent: "add", userId: "u", name: "n", price: " " });
    expect(add).toMatchObject({ intent: "add", price: undefined });
  });
});

describe("the expiry a renewal gives", () => {
  const now = new Date("2026-11-24T10:00:00.000Z");
  it("adds the cycle's months to the current expiry while it is ahead", () => {
    expect(renewalExpiry("2026-11-30T08:00:00.000Z", "monthly", now)).toBe(
      "2026-12-30T08:00:00.000Z",
    );
    expect(renewalExpiry("2027-02-23T10:00:00.000Z", "quarterly", now)).toBe(
      "2027-05-23T10:00:00.000Z",
    );
    expect(renewalExpiry("2026-12-31T10:00:00.000Z", "annual", now)).toBe(
      "2027-12-31T10:00:00.000Z",
    );
  });
  it("bills a term from the expiry as stored, or from now when it is past", () => {
    // As stored: the renewal row and the invoice's line say the same instant the same way.
    expect(renewalTermStart("2026-11-30T08:00:00Z", now)).toBe("2026-11-30T08:00:00Z");
    expect(renewalTermStart(now.toISOString(), now)).toBe(now.toISOString());
    // Expired ten days ago: the month billed starts today, as the expiry it gives does.
    expect(renewalTermStart("2026-11-14T10:00:00.000Z", now)).toBe(now.toISOString());
  });
  it("starts from now for a service already expired", () => {
    expect(renewalExpiry("2026-01-31T10:00:00.000Z", "monthly", now)).toBe(
      "2026-12-24T10:00:00.000Z",
    );
    expect(renewalExpiry("2026-11-24T09:59:59.999Z", "semiannual", now)).toBe(
      "2027-05-24T10:00:00.000Z",
    );
  });
  it("renews a term cut to the end of February from that day: day 31 is not remembered", () => {
    const january = new Date("2027-01-01T00:00:00.000Z");
    const february = renewalExpiry("2027-01-31T12:00:00.000Z", "monthly", january);
    expect(february).toBe("2027-02-28T12:00:00.000Z");
    expect(renewalExpiry(february, "monthly", january)).toBe("2027-03-28T12:00:00.000Z");
    // In a leap year the cut is to the 29th, and a quarter from there is 29 May.
    expect(renewalExpiry("2028-01-31T12:00:00.000Z", "monthly", january)).toBe(
      "2028-02-29T12:00:00.000Z",
    );
    expect(renewalExpiry("2028-02-29T12:00:00.000Z", "quarterly", january)).toBe(
      "2028-05-29T12:00:00.000Z",
    );
  });
});

describe("the label a notice or a mail names a service by", () => {
  it("names the plan and, in brackets, the server", () => {
    expect(serviceLabel({ name: "SAMP Starter", serverName: "Karim RP" })).toBe(
      "SAMP Starter (Karim RP)",
    );
  });
  it("names the plan alone for a service without a server name", () => {
    expect(serviceLabel({ name: "SAMP Starter", serverName: "" })).toBe("SAMP Starter");
  });
  it("trims the server name, and reads a blank one as none", () => {
    expect(serviceLabel({ name: "SAMP Starter", serverName: "  Karim RP \t" })).toBe(
      "SAMP Starter (Karim RP)",
    );
    expect(serviceLabel({ name: "SAMP Starter", serverName: " \n " })).toBe("SAMP Starter");
  });
});
