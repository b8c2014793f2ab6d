import {
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from "kysely";
import { describe, expect, it } from "vitest";
import type { Database } from "~/db/schema";
import { readOnlyDatabase, ReadOnlyViewError, writeOf } from "./read-only-database.server";

// A database that runs nothing: the read-only rule is about the query, decided before it reaches a driver.
const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (kysely) => new SqliteIntrospector(kysely),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

describe("the read-only view's database", () => {
  it("tells reads from writes by the query itself", () => {
    expect(writeOf(db.selectFrom("users").selectAll().toOperationNode())).toBeNull();
    expect(
      writeOf(
        db
          .selectFrom("users")
          .select((eb) => eb.selectFrom("tickets").select("id").limit(1).as("ticket"))
          .toOperationNode(),
      ),
    ).toBeNull();
    expect(writeOf(sql`select 1`.toOperationNode())).toBeNull();
    expect(writeOf(sql`  SELECT count(*) from users`.toOperationNode())).toBeNull();

    expect(
      writeOf(
        db.updateTable("users").set({ locale: "fr" }).where("id", "=", "x").toOperationNode(),
      ),
    ).toBe("UpdateQueryNode");
    expect(
      writeOf(
        db
          .insertInto("notifications")
          .values({} as never)
          .toOperationNode(),
      ),
    ).toBe("InsertQueryNode");
    expect(writeOf(db.deleteFrom("sessions").toOperationNode())).toBe("DeleteQueryNode");
    expect(writeOf(sql`update users set locale = 'fr'`.toOperationNode())).toBe("raw statement");
    expect(writeOf(sql`with x as (select 1) delete from sessions`.toOperationNode())).toBe(
      "raw statement",
    );
    // A write inside a select (PostgreSQL's data-modifying WITH) is a write.
    expect(
      writeOf(
        db
          .with("gone", (qb) => qb.deleteFrom("sessions").returning("id"))
          .selectFrom("gone")
          .selectAll()
          .toOperationNode(),
      ),
    ).toBe("DeleteQueryNode");
  });

  it("refuses a write before it reaches the database, and lets a read through", async () => {
    const readOnly = readOnlyDatabase(db);
    await expect(readOnly.selectFrom("users").selectAll().execute()).resolves.toEqual([]);
    await expect(
      readOnly.updateTable("users").set({ locale: "fr" }).where("id", "=", "x").execute(),
    ).rejects.toBeInstanceOf(ReadOnlyViewError);
    await expect(
      readOnly.transaction().execute((trx) => trx.deleteFrom("sessions").execute()),
    ).rejects.toBeInstanceOf(ReadOnlyViewError);
    await expect(sql`delete from sessions`.execute(readOnly)).rejects.toBeInstanceOf(
      ReadOnlyViewError,
    );
    // The database it wraps is left as it was.
    await expect(db.deleteFrom("sessions").execute()).resolves.toBeDefined();
  });
});
