import { describe, expect, it } from "vitest";
import { namedQuery, staleResultType, statementName } from "./named-statements.server";

const none = { has: () => false, size: 0 };

describe("namedQuery", () => {
  it("names a query with parameters by its text, the same in any process", () => {
    const names = new Map<string, string>();
    const text = "select name from users where id = $1";
    const first = namedQuery(text, ["u1"], none, names);
    expect(first).toEqual({ name: statementName(text), text, values: ["u1"] });
    expect(namedQuery(text, ["u2"], none, new Map())?.name).toBe(first?.name);
    expect(statementName("select 2 where $1")).not.toBe(first?.name);
  });

  it("leaves a query without parameters, or not Kysely's (text, values), as it was", () => {
    expect(namedQuery("begin", [], none, new Map())).toBeNull();
    expect(namedQuery({ text: "select $1" }, [1], none, new Map())).toBeNull();
    expect(namedQuery("select $1", undefined, none, new Map())).toBeNull();
  });

  it("names no new text once the connection holds its limit, but still the ones it holds", () => {
    const held = statementName("select $1");
    const full = { has: (name: string) => name === held, size: 2 };
    expect(namedQuery("select $1", [1], full, new Map(), 2)?.name).toBe(held);
    expect(namedQuery("select $1, $2", [1, 2], full, new Map(), 2)).toBeNull();
    expect(namedQuery("select $1, $2", [1, 2], full, new Map(), 3)).not.toBeNull();
  });

  it("gives a connection's statements new names after a stale one, counted against its limit", () => {
    const held = statementName("select $1");
    const full = { has: (name: string) => name === held, size: 2 };
    expect(namedQuery("select $1", [1], none, new Map(), 2, 1)?.name).toBe(`${held}_1`);
    // Held under its old name only: the renamed one would be one more, past the limit.
    expect(namedQuery("select $1", [1], full, new Map(), 2, 1)).toBeNull();
  });

  it("stops remembering texts past ten thousand, and still names them", () => {
    const names = new Map<string, string>();
    for (let i = 0; i < 10_005; i++) namedQuery(`select ${i} where $1`, [1], none, names);
    expect(names.size).toBe(10_000);
    expect(namedQuery("select -1 where $1", [1], none, names)?.name).toBe(
      statementName("select -1 where $1"),
    );
  });
});

describe("staleResultType", () => {
  it("knows PostgreSQL's refusal of a statement whose table changed, and nothing else", () => {
    const stale = Object.assign(new Error("cached plan must not change result type"), {
      code: "0A000",
    });
    expect(staleResultType(stale)).toBe(true);
    expect(staleResultType(Object.assign(new Error("other"), { code: "0A000" }))).toBe(false);
    expect(staleResultType(new Error("cached plan must not change result type"))).toBe(false);
    expect(staleResultType("cached plan must not change result type")).toBe(false);
  });
});
