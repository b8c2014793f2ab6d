import { describe, expect, it } from "vitest";
import { NOTIFICATION_KINDS, notificationValues, STAFF_NOTIFICATION_KINDS } from "./notifications";

describe("a notification's values as its text shows them", () => {
  const due = "2026-11-24T09:30:00.000Z";

  it("writes a stale schedule's moment as a date and time in the site's time zone, not as ISO", () => {
    const en = notificationValues(
      { schedule: "housekeeping.jobs", due },
      {
        locale: "en",
        timeZone: "Europe/Paris",
      },
    );
    expect(en.schedule).toBe("housekeeping.jobs");
    // Paris is UTC+1 in November.
    expect(en.due).toBe("24 Nov 2026, 10:30");
    expect(notificationValues({ due }, { locale: "en", timeZone: "UTC" }).due).toMatch(/9:30/);
    expect(notificationValues({ due }, { locale: "fr", timeZone: "UTC" }).due).toMatch(
      /24 nov\. 2026.*09:30/,
    );
    // Arabic as the site writes numbers (Latin digits, intlLocale), day before month.
    expect(notificationValues({ due }, { locale: "ar", timeZone: "UTC" }).due).toBe(
      "24\u200f/11\u200f/2026، 09:30",
    );
  });

  it("writes a service's new expiry (a refunded renewal) as a date and time too", () => {
    expect(
      notificationValues(
        { service: "My server", expires: due },
        { locale: "en", timeZone: "Europe/Paris" },
      ),
    ).toEqual({ service: "My server", expires: "24 Nov 2026, 10:30" });
  });

  it("writes coins from amountCents in the reader's language, and leaves the rest as stored", () => {
    expect(
      notificationValues({ id: 7, amountCents: 123_450 }, { locale: "en", timeZone: "UTC" }),
    ).toEqual({ id: 7, amountCents: 123_450, amount: "1,234.50", euros: "€1,234.50" });
    expect(
      notificationValues({ amountCents: 123_450 }, { locale: "fr", timeZone: "UTC" }).amount,
    ).toMatch(/^1\s234,50$/);
    // A value that is no moment stays as it is rather than reading "Invalid Date".
    expect(notificationValues({ due: "soon" }, { locale: "en", timeZone: "UTC" }).due).toBe("soon");
  });

  it("counts the staff's kinds among the kinds", () => {
    for (const kind of STAFF_NOTIFICATION_KINDS) expect(NOTIFICATION_KINDS).toContain(kind);
    expect(STAFF_NOTIFICATION_KINDS).toContain("order_waiting");
    expect(STAFF_NOTIFICATION_KINDS).toContain("ticket_opened");
  });
});
