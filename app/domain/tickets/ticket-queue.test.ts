import { describe, expect, it } from "vitest";
import { formatWaited, waitedFor } from "./ticket-queue";

describe("how long a ticket has waited", () => {
  const now = "2026-05-10T12:00:00.000Z";
  it("says minutes under an hour, hours under a day, whole days after", () => {
    expect(waitedFor("2026-05-10T11:59:30.000Z", now)).toEqual({ unit: "minute", value: 0 });
    expect(waitedFor("2026-05-10T11:15:00.000Z", now)).toEqual({ unit: "minute", value: 45 });
    expect(waitedFor("2026-05-10T11:00:00.000Z", now)).toEqual({ unit: "hour", value: 1 });
    expect(waitedFor("2026-05-10T08:59:00.000Z", now)).toEqual({ unit: "hour", value: 3 });
    expect(waitedFor("2026-05-09T12:00:01.000Z", now)).toEqual({ unit: "hour", value: 23 });
    expect(waitedFor("2026-05-09T12:00:00.000Z", now)).toEqual({ unit: "day", value: 1 });
    expect(waitedFor("2026-05-07T23:00:00.000Z", now)).toEqual({ unit: "day", value: 2 });
  });

  it("never says a negative wait when the clock is a little behind", () => {
    expect(waitedFor("2026-05-10T12:00:05.000Z", now)).toEqual({ unit: "minute", value: 0 });
  });

  it("says it short, in the reader's language", () => {
    // French and Arabic put a no-break space of some width between the number and its unit.
    const said = (since: string, locale: string) =>
      formatWaited(since, now, locale).replace(/\s/gu, " ");
    expect(said("2026-05-10T09:00:00.000Z", "en")).toBe("3 hrs");
    expect(said("2026-05-08T09:00:00.000Z", "en")).toBe("2 days");
    expect(said("2026-05-10T09:00:00.000Z", "fr")).toBe("3 h");
    expect(said("2026-05-08T09:00:00.000Z", "fr")).toBe("2 j");
    expect(said("2026-05-10T11:15:00.000Z", "fr")).toBe("45 min");
  });
});
