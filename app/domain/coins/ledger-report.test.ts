import { describe, expect, it } from "vitest";
import { ledgerReportQuerySchema } from "./ledger-report.schemas";

describe("the coin ledger report's query string", () => {
  const read = (query: Record<string, string>) => ledgerReportQuerySchema.parse(query);

  it("keeps dates written as YYYY-MM-DD, the filters and the page", () => {
    expect(
      read({
        customer: "buyer",
        kind: "renewal",
        from: "2026-01-31",
        to: "2026-12-01",
        page: "3",
      }),
    ).toEqual({
      customer: "buyer",
      kind: "renewal",
      from: "2026-01-31",
      to: "2026-12-01",
      page: 3,
    });
  });

  it("ignores a date that is not one, never refusing the page", () => {
    for (const bad of [
      "2026-1-01",
      "2026-01-1",
      "x2026-01-01",
      "2026-01-01x",
      "12026-01-01",
      // A date JavaScript reads (an extended year) that is not a day of the report.
      "+002026-01-01",
      "2026-13-01",
      "abcd-ef-gh",
      "",
    ]) {
      const query = read({ from: bad, to: bad });
      expect(query.from, bad).toBeUndefined();
      expect(query.to, bad).toBeUndefined();
    }
  });
});
