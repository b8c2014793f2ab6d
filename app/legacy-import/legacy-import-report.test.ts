import { describe, expect, it } from "vitest";
import { emptyCounts } from "./collections";
import { formatRefusal, formatReport } from "./legacy-import-report";

describe("the report", () => {
  it("prints a table of every collection and each skip with its reason", () => {
    const counts = emptyCounts();
    counts.users = { imported: 3, matched: 0, skipped: 1, already: 2 };
    const lines = formatReport({
      dryRun: false,
      source: { shape: "document", mainKey: null, legacyKeys: [], ignored: [] },
      counts,
      skipped: [
        {
          collection: "users",
          ref: "users[4]",
          label: "x@example.com",
          reason: { code: "emailTaken" },
        },
      ],
      notes: [],
      oneTimePasswords: [{ email: "admin@example.com", password: "OneTime123" }],
    });
    expect(lines).toContain("users                       3        0        1                 2");
    expect(lines.join("\n")).toContain(
      "users[4] (x@example.com): an account with this email already exists in Hostfront",
    );
    expect(lines.join("\n")).toContain("admin@example.com: OneTime123");
  });

  it("prints every problem of a refused file, and says nothing was imported", () => {
    expect(formatRefusal("old.json", [{ path: "users[3].email", message: "bad" }])).toEqual([
      "Refused old.json: nothing was imported.",
      "  users[3].email: bad",
    ]);
  });
});
