import {
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import { describe, expect, it } from "vitest";
import { containsAny, containsPattern } from "./like-pattern";

describe("containsPattern", () => {
  it("matches the text anywhere", () => {
    expect(containsPattern("ada")).toBe("%ada%");
  });

  it("escapes LIKE's wildcards and its escape character, so they match literally", () => {
    expect(containsPattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
  });

  it("matches everything for an empty text", () => {
    expect(containsPattern("")).toBe("%%");
  });
});

describe("containsAny", () => {
  const db = new Kysely<Record<string, never>>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new SqliteIntrospector(kysely),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });

  it("asks each column for the escaped pattern, or'ed in parentheses", () => {
    const query = containsAny(["users.email", "lower(users.name)"], "50%").compile(db);
    expect(query.sql).toBe(
      "(users.email like ? escape '\\' or lower(users.name) like ? escape '\\')",
    );
    expect(query.parameters).toEqual(["%50\\%%", "%50\\%%"]);
  });

  it("is one LIKE for one column", () => {
    const query = containsAny(["email"], "ada").compile(db);
    expect(query.sql).toBe("(email like ? escape '\\')");
    expect(query.parameters).toEqual(["%ada%"]);
  });
});
