import { describe, expect, it } from "vitest";
import {
  dateTimeFormat,
  formatCalendarDay,
  mediumDate,
  mediumDateTime,
  numberFormat,
} from "./intl-format";
import { intlLocale } from "./money";

describe("shared Intl formatters", () => {
  it("gives one formatter per language and options, formatting as a new one would", () => {
    expect(numberFormat("fr", { useGrouping: false })).toBe(
      numberFormat("fr", { useGrouping: false }),
    );
    expect(numberFormat("fr")).not.toBe(numberFormat("fr", { useGrouping: false }));
    expect(numberFormat("en").format(12345)).toBe("12,345");
    expect(numberFormat("en", { useGrouping: false }).format(12345)).toBe("12345");
    const day = new Date("2026-11-23T10:00:00Z");
    expect(dateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" }).format(day)).toBe(
      new Intl.DateTimeFormat(intlLocale("en"), { dateStyle: "medium", timeZone: "UTC" }).format(
        day,
      ),
    );
    expect(dateTimeFormat("en", { dateStyle: "medium" })).not.toBe(
      dateTimeFormat("fr", { dateStyle: "medium" }),
    );
  });

  it("writes Arabic with Western digits, as the money formatter does", () => {
    expect(numberFormat("ar", { useGrouping: false }).format(2458)).toBe("2458");
  });
});

describe("the named formats", () => {
  it("are the shared formatters of their options, a time zone left out being the default one", () => {
    expect(mediumDateTime("fr")).toBe(
      dateTimeFormat("fr", { dateStyle: "medium", timeStyle: "short" }),
    );
    expect(mediumDateTime("en", { timeZone: "Africa/Abidjan" })).toBe(
      dateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "Africa/Abidjan" }),
    );
    expect(mediumDate("en")).toBe(dateTimeFormat("en", { dateStyle: "medium" }));
  });

  it("write a moment as a medium date, with a short time or without", () => {
    const at = new Date("2026-11-24T14:05:00Z");
    expect(mediumDateTime("en", { timeZone: "UTC" }).format(at)).toBe("24 Nov 2026, 14:05");
    expect(mediumDate("en").format(new Date("2026-11-24T12:00:00Z"))).toBe("24 Nov 2026");
  });

  it("with seconds, write a moment as the security and log pages' own formats did, in every language", () => {
    const at = new Date("2026-11-24T14:05:09Z");
    for (const locale of ["en", "fr", "ar"]) {
      // What those pages wrote before, with a formatter of their options made afresh.
      const byHand = (timeStyle: "short" | "medium") =>
        new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: "medium", timeStyle }).format(at);
      expect(mediumDateTime(locale, { seconds: true }).format(at)).toBe(byHand("medium"));
      expect(mediumDateTime(locale, { seconds: false }).format(at)).toBe(byHand("short"));
    }
    expect(mediumDateTime("en", { timeZone: "UTC", seconds: true }).format(at)).toBe(
      "24 Nov 2026, 14:05:09",
    );
  });
});

describe("formatCalendarDay", () => {
  it("writes a date input's day in the reader's language, the same day in every time zone", () => {
    expect(formatCalendarDay("2026-11-24", "en")).toBe("24 Nov 2026");
    expect(formatCalendarDay("2026-01-01", "fr")).toBe("1 janv. 2026");
    expect(formatCalendarDay("2026-12-31", "en")).toBe("31 Dec 2026");
  });

  it("gives back what is not a day as it came", () => {
    expect(formatCalendarDay("yesterday", "en")).toBe("yesterday");
  });
});
