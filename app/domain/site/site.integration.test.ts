import { expect, it } from "vitest";
import * as contact from "~/routes/site/contact";
import * as newsletter from "~/routes/site/newsletter";
import { contextFor, formRequest, settle } from "../../../tests/support/request-context";
import { describeEachDatabase } from "../../../tests/support/test-database";

type Result = {
  data: {
    ok: boolean;
    fieldErrors?: Record<string, string>;
    values?: Record<string, string>;
    error?: string;
  };
  init: { status: number } | null;
};

describeEachDatabase("contact and newsletter", (app) => {
  const send = async (
    module: { action: (args: never) => unknown },
    path: string,
    fields: Record<string, string>,
  ) =>
    settle(async () =>
      module.action({
        request: formRequest(path, fields),
        context: await contextFor(app()),
        params: {},
      } as never),
    );

  it("keeps a contact message, and refuses an incomplete one keeping what was typed", async () => {
    const ok = await send(contact, "/contact", {
      name: "Yassine",
      email: "Yassine@Example.com",
      subject: "Plans",
      message: "Do you have Minecraft?",
    });
    expect(ok).toEqual({ ok: true });
    const rows = await app().db.selectFrom("contact_messages").selectAll().execute();
    expect(rows.map((r) => [r.name, r.email, r.subject])).toContainEqual([
      "Yassine",
      "yassine@example.com",
      "Plans",
    ]);

    const missing = (await send(contact, "/contact", {
      name: "Only name",
      email: "bad",
      subject: "",
      message: "",
    })) as Result;
    expect(missing.init?.status).toBe(400);
    expect(missing.data.fieldErrors).toEqual({
      email: "site.errors.emailInvalid",
      subject: "site.errors.required",
      message: "site.errors.required",
    });
    expect(missing.data.values).toMatchObject({ name: "Only name", email: "bad" });
    expect(await app().db.selectFrom("contact_messages").selectAll().execute()).toHaveLength(
      rows.length,
    );
  });

  it("subscribes an address once, thanking both times, and refuses a bad one", async () => {
    expect(await send(newsletter, "/newsletter", { email: "fan@example.com" })).toEqual({
      ok: true,
    });
    expect(await send(newsletter, "/newsletter", { email: "FAN@example.com" })).toEqual({
      ok: true,
    });
    const rows = await app()
      .db.selectFrom("newsletter_subscribers")
      .selectAll()
      .where("email", "=", "fan@example.com")
      .execute();
    expect(rows).toHaveLength(1);
    const bad = (await send(newsletter, "/newsletter", { email: "nope" })) as Result;
    expect(bad.init?.status).toBe(400);
    expect(bad.data.error).toBe("site.errors.emailInvalid");
    const empty = (await send(newsletter, "/newsletter", {})) as Result;
    expect(empty.data.error).toBe("site.errors.emailRequired");
  });
});
