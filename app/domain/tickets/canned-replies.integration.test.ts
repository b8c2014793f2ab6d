import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { registeredCustomer } from "../../../tests/support/account-fixtures";
import { asAdmin } from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { staffMember } from "../../../tests/support/staff-members";
import { atOnce, describeEachDatabase } from "../../../tests/support/test-database";
import { MAX_CANNED_TEXT_LENGTH, type CannedReplyInput } from "./canned-replies";
import {
  cannedReplyPicker,
  createCannedReply,
  deleteCannedReply,
  findCannedReply,
  listCannedReplies,
  moveCannedReply,
  runCannedReplyAction,
  seedCannedReplies,
  updateCannedReply,
} from "./canned-replies.server";
import { CANNED_REPLY_SEEDS } from "./canned-reply-seeds";
import type { Department } from "./tickets";
import { openTicket } from "./tickets.server";

/** A reply as the editor saves it, under a title no other test uses. */
function input(change: Partial<CannedReplyInput> = {}): CannedReplyInput {
  return {
    title: `Reply ${randomUUID().slice(0, 8)}`,
    department: null,
    texts: {
      en: "Hello {name}, about #{ticket}.",
      fr: "Bonjour {name}, à propos du #{ticket}.",
      ar: "",
    },
    ...change,
  };
}

describeEachDatabase("canned replies", (app) => {
  async function auditOf(id: number) {
    const rows = await readRows(
      app().db,
      "audit_log",
      ["action", "actor_id", "before", "after"],
      { target_type: "canned_reply", target_id: String(id) },
      "id",
    );
    return rows.map((row) => ({
      action: row.action,
      actorId: row.actor_id,
      before: row.before === null ? null : (JSON.parse(row.before) as Record<string, unknown>),
      after: row.after === null ? null : (JSON.parse(row.after) as Record<string, unknown>),
    }));
  }

  async function created(change: Partial<CannedReplyInput> = {}) {
    const { db, admin } = await asAdmin(app());
    const result = await createCannedReply(db, { actorId: admin, reply: input(change) });
    if (!result.ok) throw new Error(result.error);
    return result.reply;
  }

  const count = async () => (await listCannedReplies(app().db)).length;

  /** A customer who reads `locale`, with a ticket of `department`; the ticket's id. */
  async function ticketOf(
    name: string,
    locale: string | null,
    department: Department = "technical",
  ) {
    const userId = await registeredCustomer(app(), {
      name,
      email: `canned-${randomUUID()}@example.com`,
      password: "Buyer-pw-8842",
    });
    await app().db.updateTable("users").set({ locale }).where("id", "=", userId).execute();
    const opened = await openTicket(app().db, {
      userId,
      department,
      subject: "My server",
      priority: "medium",
      message: "It does not start.",
    });
    if (!opened.ok) throw new Error("no ticket");
    return opened.ticket.id;
  }

  it("starts a new install with the seeded replies, in order, in the three languages", async () => {
    const seeded = (await listCannedReplies(app().db)).filter((reply) => reply.authorName === null);
    expect(seeded.map((reply) => reply.title)).toEqual(CANNED_REPLY_SEEDS.map((s) => s.title));
    expect(seeded.map((reply) => reply.texts)).toEqual(CANNED_REPLY_SEEDS.map((s) => s.texts));
    expect(seeded.map((reply) => reply.position)).toEqual(CANNED_REPLY_SEEDS.map((_, i) => i));
  });

  it("writes a reply last in the list, with its writer, and records it", async () => {
    const { db, admin } = await asAdmin(app());
    const before = await listCannedReplies(db);
    const reply = input({ department: "billing" });
    const result = await createCannedReply(db, { actorId: admin, reply });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.reply).toMatchObject({ ...reply, authorName: "Administrator" });
    expect(result.reply.position).toBe(Math.max(...before.map((r) => r.position)) + 1);
    expect((await listCannedReplies(db)).at(-1)?.id).toBe(result.reply.id);
    expect(await auditOf(result.reply.id)).toEqual([
      {
        action: "canned_reply.create",
        actorId: admin,
        before: null,
        after: { id: result.reply.id, ...reply },
      },
    ]);
  });

  it("refuses, with a message and changing nothing, an empty English text, a text too long and a title another reply has", async () => {
    const { db, admin } = await asAdmin(app());
    const first = await created();
    const rows = await count();
    expect(
      await createCannedReply(db, {
        actorId: admin,
        reply: input({ texts: { en: " ", fr: "Bonjour", ar: "مرحبًا" } }),
      }),
    ).toEqual({
      ...refusal("invalid", "admin-tickets.cannedReplies.errors.textRequiredEn"),
      field: "textEn",
    });
    expect(
      await createCannedReply(db, {
        actorId: admin,
        reply: input({ texts: { en: "Hi", fr: "x".repeat(MAX_CANNED_TEXT_LENGTH + 1), ar: "" } }),
      }),
    ).toEqual({
      ...refusal("invalid", "admin-tickets.cannedReplies.errors.textTooLong.fr"),
      field: "textFr",
    });
    // The same title, whatever its case and spaces.
    const again = await createCannedReply(db, {
      actorId: admin,
      reply: input({ title: `  ${first.title.toUpperCase()} ` }),
    });
    expect(again).toEqual({
      ...refusal("conflict", "admin-tickets.cannedReplies.errors.titleTaken"),
      field: "title",
    });
    expect(await count()).toBe(rows);

    // Another reply renamed to it is refused too; renamed to its own title in another case, saved.
    const second = await created();
    expect(
      await updateCannedReply(db, {
        actorId: admin,
        id: second.id,
        reply: input({ title: first.title }),
      }),
    ).toMatchObject({ ok: false, error: "admin-tickets.cannedReplies.errors.titleTaken" });
    expect((await findCannedReply(db, second.id))?.title).toBe(second.title);
    const recased = await updateCannedReply(db, {
      actorId: admin,
      id: first.id,
      reply: { ...first, title: first.title.toLowerCase() },
    });
    expect(recased).toMatchObject({ ok: true, reply: { title: first.title.toLowerCase() } });
  });

  it(
    atOnce("sqlite", "two members adding the same title at once: one reply, one refusal"),
    async () => {
      const { db, admin } = await asAdmin(app());
      const reply = input();
      const results = await Promise.all(
        [0, 1].map(() => createCannedReply(db, { actorId: admin, reply })),
      );
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      expect(results.find((result) => !result.ok)).toMatchObject({
        error: "admin-tickets.cannedReplies.errors.titleTaken",
      });
    },
  );

  it("changes a reply and records before and after; the same again records nothing", async () => {
    const { db, admin } = await asAdmin(app());
    const reply = await created();
    const change = {
      title: `${reply.title} (edited)`,
      department: "sales" as const,
      texts: { ...reply.texts, ar: "مرحبًا {name}" },
    };
    const updated = await updateCannedReply(db, { actorId: admin, id: reply.id, reply: change });
    expect(updated).toMatchObject({ ok: true, reply: change });
    expect(await updateCannedReply(db, { actorId: admin, id: reply.id, reply: change })).toEqual(
      updated,
    );
    const audit = await auditOf(reply.id);
    expect(audit.map((row) => row.action)).toEqual(["canned_reply.create", "canned_reply.update"]);
    expect(audit[1]).toMatchObject({
      before: { title: reply.title, department: null, texts: reply.texts },
      after: change,
    });
    expect(await updateCannedReply(db, { actorId: admin, id: 999_999, reply: change })).toEqual(
      refusal("notFound", "admin-tickets.cannedReplies.errors.notFound"),
    );
  });

  it("moves a reply up and down the list, not past its ends, and records each move", async () => {
    const { db, admin } = await asAdmin(app());
    const a = await created();
    const b = await created();
    const order = async () => (await listCannedReplies(db)).map((reply) => reply.id);
    const before = await order();
    expect(before.slice(-2)).toEqual([a.id, b.id]);
    expect(await moveCannedReply(db, { actorId: admin, id: b.id, direction: "up" })).toMatchObject({
      ok: true,
    });
    expect((await order()).slice(-2)).toEqual([b.id, a.id]);
    expect(await moveCannedReply(db, { actorId: admin, id: a.id, direction: "down" })).toEqual(
      refusal("conflict", "admin-tickets.cannedReplies.errors.cannotMove"),
    );
    const top = before[0]!;
    expect(await moveCannedReply(db, { actorId: admin, id: top, direction: "up" })).toEqual(
      refusal("conflict", "admin-tickets.cannedReplies.errors.cannotMove"),
    );
    // Positions stay 0, 1, 2… in the list's order.
    const positions = (await listCannedReplies(db)).map((reply) => reply.position);
    expect(positions).toEqual(positions.map((_, index) => index));
    const moves = (await auditOf(b.id)).filter((row) => row.action === "canned_reply.move");
    expect(moves).toEqual([
      {
        action: "canned_reply.move",
        actorId: admin,
        before: { position: before.length - 1 },
        after: { position: before.length - 2 },
      },
    ]);
  });

  it("deletes a reply for good and records what it was", async () => {
    const { db, admin } = await asAdmin(app());
    const reply = await created();
    expect(await deleteCannedReply(db, { actorId: admin, id: reply.id })).toMatchObject({
      ok: true,
    });
    expect(await findCannedReply(db, reply.id)).toBeUndefined();
    expect((await auditOf(reply.id)).at(-1)).toMatchObject({
      action: "canned_reply.delete",
      before: { id: reply.id, title: reply.title, texts: reply.texts },
    });
    expect(await deleteCannedReply(db, { actorId: admin, id: reply.id })).toEqual(
      refusal("notFound", "admin-tickets.cannedReplies.errors.notFound"),
    );
  });

  it("lets Support keep the replies and refuses Billing and Technician, changing nothing", async () => {
    const { db } = await asAdmin(app());
    const support = await staffMember(app(), "support");
    const made = await createCannedReply(db, { actorId: support, reply: input() });
    expect(made).toMatchObject({ ok: true, reply: { authorName: "support member" } });
    if (!made.ok) return;
    for (const role of ["billing", "technician"] as const) {
      const actorId = await staffMember(app(), role);
      const rows = await count();
      const forbidden = { ok: false, kind: "forbidden", error: "admin-staff.checks.forbidden" };
      expect(await createCannedReply(db, { actorId, reply: input() })).toMatchObject(forbidden);
      expect(
        await updateCannedReply(db, { actorId, id: made.reply.id, reply: input() }),
      ).toMatchObject(forbidden);
      expect(
        await moveCannedReply(db, { actorId, id: made.reply.id, direction: "up" }),
      ).toMatchObject(forbidden);
      expect(await deleteCannedReply(db, { actorId, id: made.reply.id })).toMatchObject(forbidden);
      expect(await count()).toBe(rows);
      expect(await findCannedReply(db, made.reply.id)).toEqual(made.reply);
    }
  });

  it("runs the page's intents and says what each did", async () => {
    const { db, admin } = await asAdmin(app());
    const reply = input();
    const made = await runCannedReplyAction(db, admin, { intent: "create", reply });
    expect(made).toMatchObject({
      ok: true,
      message: "admin-tickets.cannedReplies.created",
      title: reply.title,
    });
    if (!made.ok) return;
    expect(await runCannedReplyAction(db, admin, { intent: "up", id: made.id })).toMatchObject({
      ok: true,
      id: made.id,
      message: "admin-tickets.cannedReplies.moved",
    });
    expect(await runCannedReplyAction(db, admin, { intent: "delete", id: made.id })).toMatchObject({
      ok: true,
      message: "admin-tickets.cannedReplies.deleted",
      title: reply.title,
    });
  });

  it("offers a ticket's replies in its customer's language with their name, English where a reply has none", async () => {
    const { db } = await asAdmin(app());
    const general = await created({ department: null });
    const billing = await created({ department: "billing" });
    const ticketId = await ticketOf("Yasmine Alaoui", "fr", "technical");
    const picker = await cannedReplyPicker(db, { ticketId, siteLocale: "en" });
    expect(picker.locale).toBe("fr");
    expect(picker.draft).toBeUndefined();
    expect(picker.replies.find((reply) => reply.id === general.id)).toEqual({
      id: general.id,
      title: general.title,
      text: `Bonjour Yasmine Alaoui, à propos du #${ticketId}.`,
      locale: "fr",
      suggested: true,
    });
    // A billing reply on a technical ticket comes after every reply that suits it.
    const suggestedFlags = picker.replies.map((reply) => reply.suggested);
    expect(suggestedFlags).toEqual([...suggestedFlags].sort((a, b) => Number(b) - Number(a)));
    expect(picker.replies.find((reply) => reply.id === billing.id)?.suggested).toBe(false);
    // The seeded connection guide, in French.
    expect(picker.replies.find((reply) => reply.title === CANNED_REPLY_SEEDS[0]!.title)?.text).toBe(
      CANNED_REPLY_SEEDS[0]!.texts.fr.replace("{name}", "Yasmine Alaoui"),
    );

    // An Arabic reader of a reply without Arabic gets English; no saved language is the site's.
    const arabic = await cannedReplyPicker(db, {
      ticketId: await ticketOf("Omar", "ar"),
      siteLocale: "en",
    });
    expect(arabic.replies.find((reply) => reply.id === general.id)).toMatchObject({
      locale: "en",
      text: expect.stringMatching(/^Hello Omar, about #\d+\.$/),
    });
    const unsaved = await cannedReplyPicker(db, {
      ticketId: await ticketOf("Nadia", null),
      siteLocale: "fr",
    });
    expect(unsaved.locale).toBe("fr");

    expect(await cannedReplyPicker(db, { ticketId: 999_999, siteLocale: "en" })).toEqual({
      locale: "en",
      replies: [],
    });
  });

  it("makes the box's text without scripts: what was typed, then the reply chosen", async () => {
    const { db } = await asAdmin(app());
    const reply = await created();
    const ticketId = await ticketOf("Karim", "en");
    const filled = `Hello Karim, about #${ticketId}.`;
    const ask = (insert: { canned?: number; message?: string }) =>
      cannedReplyPicker(db, { ticketId, siteLocale: "en", insert });
    expect((await ask({ canned: reply.id })).draft).toBe(filled);
    expect((await ask({ canned: reply.id, message: "Typed first" })).draft).toBe(
      `Typed first\n\n${filled}`,
    );
    // A reply gone since: what was typed is kept, nothing else.
    expect((await ask({ canned: 999_999, message: "Typed first" })).draft).toBe("Typed first");
    expect((await ask({})).draft).toBeUndefined();
  });

  it("seeds only a list the staff have never touched: deleted replies do not come back", async () => {
    const { db, admin } = await asAdmin(app());
    for (const reply of await listCannedReplies(db))
      await deleteCannedReply(db, { actorId: admin, id: reply.id });
    await seedCannedReplies(db);
    expect(await listCannedReplies(db)).toEqual([]);
  });
});

describeEachDatabase(
  "canned replies on an install's first start",
  (app) => {
    it("seeds them once, however many times the start runs", async () => {
      await seedCannedReplies(app().db);
      await Promise.all([seedCannedReplies(app().db), seedCannedReplies(app().db)]);
      const titles = (await listCannedReplies(app().db)).map((reply) => reply.title);
      expect(titles).toEqual(CANNED_REPLY_SEEDS.map((seed) => seed.title));
    });
  },
  { fresh: true },
);
