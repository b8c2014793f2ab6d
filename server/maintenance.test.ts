import { describe, expect, it } from "vitest";
import { maintenanceDecision } from "./maintenance";

const visitor = { maintenanceMode: true, isAdmin: false };

describe("the maintenance gate", () => {
  it("lets everything through when maintenance is off, and admins always", () => {
    expect(
      maintenanceDecision({ maintenanceMode: false, isAdmin: false, url: "/contact" }),
    ).toEqual({
      type: "pass",
    });
    expect(maintenanceDecision({ maintenanceMode: true, isAdmin: true, url: "/order" })).toEqual({
      type: "pass",
    });
  });

  it("answers every other page, of any method, with the maintenance page, keeping the query", () => {
    expect(maintenanceDecision({ ...visitor, url: "/" })).toEqual({
      type: "render",
      url: "/maintenance",
    });
    expect(maintenanceDecision({ ...visitor, url: "/services/samp?lang=fr" })).toEqual({
      type: "render",
      url: "/maintenance?lang=fr",
    });
    expect(maintenanceDecision({ ...visitor, url: "/admin/settings" })).toEqual({
      type: "render",
      url: "/maintenance",
    });
  });

  it("keeps sign-in, sign-out, the language switch and the page itself open", () => {
    for (const url of [
      "/login",
      "/login?redirectTo=%2Fadmin",
      "/login/",
      "/login.data",
      "/login/_.data",
      "/logout",
      "/language",
      "/maintenance?lang=ar",
      "/__manifest?paths=%2Fabout&version=1",
    ])
      expect(maintenanceDecision({ ...visitor, url }), url).toEqual({ type: "pass" });
  });

  it("tells an open page's data requests to load the page as a document", () => {
    expect(
      maintenanceDecision({ ...visitor, url: "/contact.data?_routes=routes%2Fsite%2Fcontact" }),
    ).toEqual({ type: "reload", location: "/contact" });
    expect(maintenanceDecision({ ...visitor, url: "/_root.data" })).toEqual({
      type: "reload",
      location: "/",
    });
    expect(
      maintenanceDecision({ ...visitor, url: "/services/vps.data?index&_routes=x&tab=2" }),
    ).toEqual({ type: "reload", location: "/services/vps?tab=2" });
  });

  it("reads the trailing-slash-aware data URLs (/_.data, /contact/_.data) the same way", () => {
    expect(maintenanceDecision({ ...visitor, url: "/_.data" })).toEqual({
      type: "reload",
      location: "/",
    });
    expect(
      maintenanceDecision({ ...visitor, url: "/contact/_.data?_routes=routes%2Fsite%2Fcontact" }),
    ).toEqual({ type: "reload", location: "/contact" });
  });

  it("answers a payment provider's notification during maintenance (a refusal would be retried for days)", () => {
    expect(maintenanceDecision({ ...visitor, url: "/hooks/payments/paypal" })).toEqual({
      type: "pass",
    });
    expect(maintenanceDecision({ ...visitor, url: "/hooks-not/payments" })).toMatchObject({
      type: "render",
    });
  });
});
