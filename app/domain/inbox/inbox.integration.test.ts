import { expect, it } from "vitest";
import { submitContactMessage, subscribeToNewsletter } from "~/domain/site/site.server";
import { adminId } from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import {
  deleteContactMessage,
  exportNewsletterSubscribersCsv,
  listContactMessages,
  listNewsletterSubscribers,
  markContactMessage,
  removeNewsletterSubscriber,
} from "./inbox.server";

describeEachDatabase("admin inbox", (app) => {
  async function auditRows(action: string) {
    return readRows(app().db, "audit_log", "*", { action }, "id");
  }

  /** The one audit entry of `action`, checked for who did it to what. */
  async function onlyAuditEntry(action: string, expected: Record<string, unknown>) {
    const audit = await auditRows(action);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject(expected);
    return audit[0]!;
  }

  it("lists contact messages newest first, searches, counts the unread, opens, marks and deletes", async () => {
    const db = app().db;
    await submitContactMessage(db, {
      name: "Nadia Benali",
      email: "nadia@example.com",
      subject: "Lag on my SA-MP server",
      message: "Since yesterday\nthe server lags.",
    });
    await submitContactMessage(db, {
      name: "100%_Gamer",
      email: "gamer@example.org",
      subject: "Invoice question",
      message: "x".repeat(5000),
    });
    await submitContactMessage(db, {
      name: "يوسف",
      email: "youssef@example.ma",
      subject: "سؤال عن VPS",
      message: "مرحبا",
    });
    const page = { page: 1, pageSize: 2 };

    const first = await listContactMessages(db, page);
    expect(first.messages.map((m) => m.name)).toEqual(["يوسف", "100%_Gamer"]);
    expect(first).toMatchObject({ hasMore: true, matching: 3, total: 3, unread: 3, opened: null });
    const second = await listContactMessages(db, { page: 2, pageSize: 2 });
    expect(second.messages.map((m) => m.name)).toEqual(["Nadia Benali"]);
    expect(second.hasMore).toBe(false);

    // Search: name, email or subject, any case; % and _ are plain characters.
    const names = async (q: string) =>
      (await listContactMessages(db, { q, page: 1, pageSize: 10 })).messages.map((m) => m.name);
    expect(await names("NADIA")).toEqual(["Nadia Benali"]);
    expect(await names("example.org")).toEqual(["100%_Gamer"]);
    expect(await names("invoice")).toEqual(["100%_Gamer"]);
    expect(await names("vps")).toEqual(["يوسف"]);
    expect(await names("0%_g")).toEqual(["100%_Gamer"]);
    expect(await names("%")).toEqual(["100%_Gamer"]);
    expect(await names("nobody")).toEqual([]);

    // Opening reads it; reading again, later, keeps the first time; unread clears it.
    const nadia = second.messages[0]!;
    const firstRead = new Date("2026-03-02T09:15:00.000Z");
    expect(await markContactMessage(db, { id: nadia.id, read: true, now: firstRead })).toEqual({
      ok: true,
    });
    const opened = await listContactMessages(db, { open: nadia.id, page: 1, pageSize: 10 });
    expect(opened.unread).toBe(2);
    expect(opened.opened).toMatchObject({
      id: nadia.id,
      message: "Since yesterday\nthe server lags.",
    });
    const readAt = opened.opened!.readAt!;
    expect(readAt).toBe(firstRead.toISOString());
    await markContactMessage(db, {
      id: nadia.id,
      read: true,
      now: new Date(firstRead.getTime() + 60_000),
    });
    expect(
      (await listContactMessages(db, { open: nadia.id, page: 1, pageSize: 1 })).opened?.readAt,
    ).toBe(readAt);
    const unreadOnly = await listContactMessages(db, { show: "unread", page: 1, pageSize: 10 });
    expect(unreadOnly.messages.map((m) => m.name)).toEqual(["يوسف", "100%_Gamer"]);
    expect(unreadOnly.matching).toBe(2);
    await markContactMessage(db, { id: nadia.id, read: false });
    expect((await listContactMessages(db, { page: 1, pageSize: 1 })).unread).toBe(3);
    expect(await markContactMessage(db, { id: 999_999, read: true })).toEqual(
      refusal("notFound", "admin-inbox.errors.messageNotFound"),
    );

    // Delete: gone, with an audit entry that names no one.
    const actor = await adminId(app());
    expect(await deleteContactMessage(db, { id: nadia.id, actorId: actor })).toEqual({ ok: true });
    expect((await listContactMessages(db, { page: 1, pageSize: 10 })).total).toBe(2);
    const entry = await onlyAuditEntry("contact_message.delete", {
      actor_id: actor,
      target_type: "contact_message",
      target_id: String(nadia.id),
    });
    expect(JSON.parse(entry.before!)).toEqual({ receivedAt: nadia.createdAt, read: false });
    // Every text of the entry but its random ids (a session-made id once held "LAg"): no name, email or subject.
    const { id: _id, actor_id: _actor, ...texts } = entry;
    expect(JSON.stringify(texts)).not.toMatch(/nadia|Lag/i);
    expect(await deleteContactMessage(db, { id: nadia.id, actorId: actor })).toEqual(
      refusal("notFound", "admin-inbox.errors.messageNotFound"),
    );
    expect(await auditRows("contact_message.delete")).toHaveLength(1);
  });

  it("lists subscribers newest first, searches, removes one (audited) and exports all as CSV", async () => {
    const db = app().db;
    for (const email of [
      "first@example.com",
      "-2+3@example.com",
      '=HYPERLINK("http://evil","x")@example.com',
      "Last@Example.com",
    ])
      await subscribeToNewsletter(db, email);

    const list = await listNewsletterSubscribers(db, { page: 1, pageSize: 3 });
    expect(list.subscribers.map((s) => s.email)).toEqual([
      "last@example.com",
      '=hyperlink("http://evil","x")@example.com',
      "-2+3@example.com",
    ]);
    expect(list).toMatchObject({ hasMore: true, matching: 4, total: 4 });
    const search = await listNewsletterSubscribers(db, { q: "FIRST", page: 1, pageSize: 10 });
    expect(search.subscribers.map((s) => s.email)).toEqual(["first@example.com"]);
    expect(search).toMatchObject({ matching: 1, total: 4 });
    expect((await listNewsletterSubscribers(db, { q: "_", page: 1, pageSize: 10 })).matching).toBe(
      0,
    );

    const csv = await exportNewsletterSubscribersCsv(db, {
      now: new Date("2026-11-22T23:59:59.000Z"),
    });
    expect(csv.filename).toBe("hostfront-newsletter-subscribers-2026-11-22.csv");
    const lines = csv.body.split("\r\n");
    expect(lines[0]).toBe("\uFEFFemail,subscribed_at");
    expect(lines.slice(1, -1).map((line) => line.replace(/,[^,]*$/, ""))).toEqual([
      "first@example.com",
      `"'-2+3@example.com"`,
      `"'=hyperlink(""http://evil"",""x"")@example.com"`,
      "last@example.com",
    ]);
    expect(lines[1]).toMatch(/^first@example\.com,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(lines.at(-1)).toBe("");

    const actor = await adminId(app());
    const first = (await listNewsletterSubscribers(db, { q: "first", page: 1, pageSize: 1 }))
      .subscribers[0]!;
    expect(await removeNewsletterSubscriber(db, { id: first.id, actorId: actor })).toEqual({
      ok: true,
    });
    expect((await listNewsletterSubscribers(db, { page: 1, pageSize: 10 })).total).toBe(3);
    const entry = await onlyAuditEntry("newsletter_subscriber.remove", {
      actor_id: actor,
      target_type: "newsletter_subscriber",
      target_id: String(first.id),
    });
    expect(JSON.stringify(entry)).not.toContain("first@");
    expect(await removeNewsletterSubscriber(db, { id: first.id, actorId: actor })).toEqual(
      refusal("notFound", "admin-inbox.errors.subscriberNotFound"),
    );
    // Removed, they can subscribe again.
    await subscribeToNewsletter(db, "first@example.com");
    expect((await listNewsletterSubscribers(db, { page: 1, pageSize: 10 })).total).toBe(4);
  });
});
