import { expect, it } from "vitest";
import * as contact from "~/routes/site/contact";
import * as newsletter from "~/routes/site/newsletter";
import { submitContactMessage, subscribeToNewsletter } from "./site.server";
import { readRow, readRows } from "../../../tests/support/read-column";
import { contextFor, postAction, routeArgs, settle } from "../../../tests/support/request-context";
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
  ) => postAction(app(), module, path, fields);
  const sendMessage = (name: string, email: string, subject: string, message: string) =>
    send(contact, "/contact", { name, email, subject, message });
  const messageFrom = (email: string) => readRow(app().db, "contact_messages", "*", { email });

  it("keeps a contact message, and refuses an incomplete one keeping what was typed", async () => {
    const ok = await sendMessage(
      "Yassine",
      "Yassine@Example.com",
      "Plans",
      "Do you have Minecraft?",
    );
    expect(ok).toEqual({ ok: true });
    const rows = await app().db.selectFrom("contact_messages").selectAll().execute();
    expect(rows.map((r) => [r.name, r.email, r.subject])).toContainEqual([
      "Yassine",
      "yassine@example.com",
      "Plans",
    ]);

    const missing = (await sendMessage("Only name", "bad", "", "")) as Result;
    expect(missing.init?.status).toBe(400);
    expect(missing.data.fieldErrors).toEqual({
      email: "common.errors.emailInvalid",
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
    const rows = await readRows(app().db, "newsletter_subscribers", "*", {
      email: "fan@example.com",
    });
    expect(rows).toHaveLength(1);
    const bad = (await send(newsletter, "/newsletter", { email: "nope" })) as Result;
    expect(bad.init?.status).toBe(400);
    expect(bad.data.error).toBe("common.errors.emailInvalid");
    const empty = (await send(newsletter, "/newsletter", {})) as Result;
    expect(empty.data.error).toBe("common.errors.emailRequired");
  });
  it("stores a message with NUL characters dropped instead of failing on PostgreSQL", async () => {
    const ok = await sendMessage("Nul\u0000l", "nul@example.com", "\u0000Subject", "Line\u0000one");
    expect(ok).toEqual({ ok: true });
    const row = await messageFrom("nul@example.com");
    expect([row.name, row.subject, row.message]).toEqual(["Null", "Subject", "Lineone"]);
  });

  it("keeps messages unread and subscribers once per address in the domain itself", async () => {
    await submitContactMessage(app().db, {
      name: "Direct",
      email: "direct@example.com",
      subject: "Hello",
      message: "Stored as sent",
    });
    const message = await messageFrom("direct@example.com");
    expect(message.read_at).toBeNull();
    expect(message.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    await subscribeToNewsletter(app().db, "Mixed@Example.com");
    await subscribeToNewsletter(app().db, " mixed@example.COM ");
    const rows = await app()
      .db.selectFrom("newsletter_subscribers")
      .select("email")
      .where("email", "like", "%mixed%")
      .execute();
    expect(rows).toEqual([{ email: "mixed@example.com" }]);
  });

  it("sends a browser that posted without JavaScript back to its page with the outcome", async () => {
    const post = async (fields: Record<string, string>) => {
      const request = new Request("http://localhost/newsletter", {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "sec-fetch-mode": "navigate",
        },
        body: new URLSearchParams(fields).toString(),
      });
      const outcome = await settle(async () =>
        newsletter.action(routeArgs({ request, context: await contextFor(app()), params: {} })),
      );
      expect(outcome).toBeInstanceOf(Response);
      const response = outcome as Response;
      expect(response.status).toBe(302);
      return response.headers.get("location");
    };
    expect(await post({ email: "nojs@example.com", redirectTo: "/about" })).toBe(
      "/about?newsletter=thanks#newsletter",
    );
    expect(await post({ email: "nope", redirectTo: "/contact" })).toBe(
      "/contact?newsletter=emailInvalid#newsletter",
    );
    expect(await post({ email: "x@example.com", redirectTo: "https://evil.example/" })).toBe(
      "/?newsletter=thanks#newsletter",
    );
    const stored = await app()
      .db.selectFrom("newsletter_subscribers")
      .select("email")
      .where("email", "in", ["nojs@example.com", "nope", "x@example.com"])
      .orderBy("email")
      .execute();
    expect(stored.map((r) => r.email)).toEqual(["nojs@example.com", "x@example.com"]);
  });
});
