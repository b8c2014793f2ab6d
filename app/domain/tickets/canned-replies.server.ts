import { sql } from "kysely";
import { inTransaction, orWhenTaken, refuse, Refusal, type Db, type Tx } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { requireStaffPermission, type StaffForbidden } from "~/domain/staff/staff-actor.server";
import type { FailureKind } from "~/lib/result";
import { editorOutcome, type EditorOutcome } from "~/lib/save-actions";
import {
  CANNED_REPLY_LOCALES,
  cannedReplyFor,
  cannedReplyProblem,
  cannedTitleKey,
  MAX_CANNED_REPLIES,
  readerLocale,
  type CannedReply,
  type CannedReplyAction,
  type CannedReplyChoice,
  type CannedReplyInput,
  type CannedReplyLocale,
  type CannedReplyProblem,
  type CannedReplyTexts,
  type MoveDirection,
  withCannedText,
} from "./canned-replies";
import { CANNED_REPLY_SEEDS } from "./canned-reply-seeds";
import type { Department } from "./tickets";

// Canned replies (docs/self-service.md): the staff's list on /admin/tickets/replies and the picker of a
// ticket's reply form. Every change is made by a member of the staff whose role answers tickets
// (`tickets.reply`, checked again here whatever route called), and recorded (cannedReply.* events: the
// audit log).

export type CannedReplyRefusal =
  | CannedReplyProblem
  | "admin-tickets.cannedReplies.errors.notFound"
  | "admin-tickets.cannedReplies.errors.titleTaken"
  | "admin-tickets.cannedReplies.errors.tooMany"
  | "admin-tickets.cannedReplies.errors.cannotMove";

/**
 * A refusal names the form field it belongs to when it is one field's; or the actor is no member of the
 * staff whose role answers tickets.
 */
type Refused =
  { ok: false; kind: FailureKind; error: CannedReplyRefusal; field?: string } | StaffForbidden;

export type CannedReplyResult = { ok: true; reply: CannedReply } | Refused;

const EMPTY_TEXTS: CannedReplyTexts = { en: "", fr: "", ar: "" };

/** A JSON object of texts per language as stored; anything else in it is dropped, a missing one is "". */
function textsOf(json: string): CannedReplyTexts {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = null;
  }
  const stored = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
  const texts = { ...EMPTY_TEXTS };
  for (const locale of CANNED_REPLY_LOCALES) {
    const text = stored[locale];
    if (typeof text === "string") texts[locale] = text;
  }
  return texts;
}

function replies(db: Db | Tx) {
  return db
    .selectFrom("canned_replies")
    .leftJoin("users", "users.id", "canned_replies.created_by")
    .select([
      "canned_replies.id",
      "canned_replies.title",
      "canned_replies.texts",
      "canned_replies.department",
      "canned_replies.position",
      "canned_replies.created_at",
      "canned_replies.updated_at",
      "users.name as author_name",
    ])
    .orderBy("canned_replies.position")
    .orderBy("canned_replies.id");
}

type ReplyRow = Awaited<ReturnType<ReturnType<typeof replies>["executeTakeFirstOrThrow"]>>;

function toReply(row: ReplyRow): CannedReply {
  return {
    id: Number(row.id),
    title: row.title,
    texts: textsOf(row.texts),
    // A CHECK keeps it one of the departments, or null.
    department: row.department as Department | null,
    position: row.position,
    authorName: row.author_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Every reply, in the staff's order. */
export async function listCannedReplies(db: Db | Tx): Promise<CannedReply[]> {
  return (await replies(db).limit(MAX_CANNED_REPLIES).execute()).map(toReply);
}

export async function findCannedReply(db: Db | Tx, id: number): Promise<CannedReply | undefined> {
  const row = await replies(db).where("canned_replies.id", "=", id).executeTakeFirst();
  return row ? toReply(row) : undefined;
}

/** What a ticket's picker offers: the customer's language and the replies filled in for them. */
export interface CannedReplyPicker {
  locale: CannedReplyLocale;
  replies: CannedReplyChoice[];
  /**
   * The reply box's text after the picker's button was pressed without scripts (`insert`): what was
   * typed, then the reply chosen; undefined when nothing was asked.
   */
  draft?: string;
}

/**
 * The replies a ticket's picker offers, each filled in for its customer: in their account's language
 * (else the site's `siteLocale`; a reply without a text in it gives its English one) with their name and
 * the ticket's number; those that suit the ticket's department (or any) first. None for no such ticket.
 * `insert` is what the picker's button sent without scripts: the reply chosen and what the box held.
 */
export async function cannedReplyPicker(
  db: Db,
  input: {
    ticketId: number;
    siteLocale: CannedReplyLocale;
    insert?: { canned?: number; message?: string };
  },
): Promise<CannedReplyPicker> {
  const none = { locale: input.siteLocale, replies: [] };
  if (!Number.isSafeInteger(input.ticketId) || input.ticketId <= 0) return none;
  const ticket = await db
    .selectFrom("tickets")
    .innerJoin("users", "users.id", "tickets.user_id")
    .select(["tickets.id", "tickets.department", "users.name", "users.locale"])
    .where("tickets.id", "=", input.ticketId)
    .executeTakeFirst();
  if (!ticket) return none;
  const about = {
    id: Number(ticket.id),
    department: ticket.department as Department,
    customerName: ticket.name,
    locale: readerLocale(ticket.locale, input.siteLocale),
  };
  const choices = (await listCannedReplies(db)).map((reply) => cannedReplyFor(reply, about));
  const replies = [
    ...choices.filter((choice) => choice.suggested),
    ...choices.filter((choice) => !choice.suggested),
  ];
  const typed = input.insert?.message ?? "";
  const chosen = replies.find((reply) => reply.id === input.insert?.canned);
  // A reply that is gone since the page was drawn inserts nothing, and keeps what was typed.
  const draft = chosen ? withCannedText(typed, chosen.text) : typed || undefined;
  return { locale: about.locale, replies, ...(draft === undefined ? {} : { draft }) };
}

/**
 * Step: every reply's row locked (PostgreSQL; SQLite has one writer), so that two changes of the list at
 * once (a move and an add, two adds near the limit) are made one after the other.
 */
async function lockReplies(trx: Tx): Promise<void> {
  await trx
    .updateTable("canned_replies")
    .set({ position: sql`position` })
    .execute();
}

/** Step: the reply acted on, or a notFound refusal. */
async function replyOrRefuse(trx: Tx, id: number): Promise<CannedReply> {
  const reply = await findCannedReply(trx, id);
  if (!reply) refuse<CannedReplyResult>("notFound", "admin-tickets.cannedReplies.errors.notFound");
  return reply;
}

/** A reply that breaks a rule (cannedReplyProblem) refused, naming its field; else null. */
function refusalOf(reply: CannedReplyInput): Refused | null {
  const problem = cannedReplyProblem(reply);
  if (!problem) return null;
  return { ok: false, kind: "invalid", error: problem.error, field: problem.field };
}

async function titleTaken(trx: Tx, title: string, exceptId?: number): Promise<boolean> {
  let query = trx
    .selectFrom("canned_replies")
    .select("id")
    .where("title_key", "=", cannedTitleKey(title));
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  return Boolean(await query.executeTakeFirst());
}

const TITLE_TAKEN = {
  ok: false,
  kind: "conflict",
  error: "admin-tickets.cannedReplies.errors.titleTaken",
  field: "title",
} as const satisfies Refused;

function columnsOf(reply: CannedReplyInput) {
  return {
    title: reply.title,
    title_key: cannedTitleKey(reply.title),
    texts: JSON.stringify(reply.texts),
    department: reply.department,
  };
}

/** Writes a new reply, last in the list. A title another reply has (whatever its case) is refused. */
export async function createCannedReply(
  db: Db,
  input: { actorId: string; reply: CannedReplyInput; now?: Date },
): Promise<CannedReplyResult> {
  const refused = refusalOf(input.reply);
  if (refused) return refused;
  // Two members adding the same title at once: the second meets the unique index.
  return orWhenTaken(TITLE_TAKEN, () =>
    inTransaction(db, async (trx): Promise<CannedReplyResult> => {
      await requireStaffPermission(trx, input.actorId, "tickets.reply");
      await lockReplies(trx);
      if (await titleTaken(trx, input.reply.title)) throw new Refusal(TITLE_TAKEN);
      const last = await trx
        .selectFrom("canned_replies")
        .select([
          (eb) => eb.fn.countAll<number | string>().as("count"),
          (eb) => eb.fn.max("position").as("last"),
        ])
        .executeTakeFirstOrThrow();
      if (Number(last.count) >= MAX_CANNED_REPLIES)
        refuse<CannedReplyResult>("conflict", "admin-tickets.cannedReplies.errors.tooMany");
      const at = (input.now ?? new Date()).toISOString();
      const row = await trx
        .insertInto("canned_replies")
        .values({
          ...columnsOf(input.reply),
          position: last.last === null ? 0 : Number(last.last) + 1,
          created_by: input.actorId,
          created_at: at,
          updated_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const reply = await replyOrRefuse(trx, Number(row.id));
      await record(trx, { type: "cannedReply.saved", actorId: input.actorId, after: reply });
      return { ok: true, reply };
    }),
  );
}

/** Changes a reply's title, department and texts; the same again changes and records nothing. */
export async function updateCannedReply(
  db: Db,
  input: { actorId: string; id: number; reply: CannedReplyInput; now?: Date },
): Promise<CannedReplyResult> {
  const refused = refusalOf(input.reply);
  if (refused) return refused;
  return orWhenTaken(TITLE_TAKEN, () =>
    inTransaction(db, async (trx): Promise<CannedReplyResult> => {
      await requireStaffPermission(trx, input.actorId, "tickets.reply");
      const before = await replyOrRefuse(trx, input.id);
      if (await titleTaken(trx, input.reply.title, before.id)) throw new Refusal(TITLE_TAKEN);
      const unchanged =
        before.title === input.reply.title &&
        before.department === input.reply.department &&
        JSON.stringify(before.texts) === JSON.stringify(input.reply.texts);
      if (unchanged) return { ok: true, reply: before };
      await trx
        .updateTable("canned_replies")
        .set({ ...columnsOf(input.reply), updated_at: (input.now ?? new Date()).toISOString() })
        .where("id", "=", before.id)
        .execute();
      const after = await replyOrRefuse(trx, before.id);
      await record(trx, { type: "cannedReply.saved", actorId: input.actorId, before, after });
      return { ok: true, reply: after };
    }),
  );
}

/** Moves a reply one place up or down the list; the first cannot go up, nor the last down. */
export async function moveCannedReply(
  db: Db,
  input: { actorId: string; id: number; direction: MoveDirection },
): Promise<CannedReplyResult> {
  return inTransaction(db, async (trx) => {
    await requireStaffPermission(trx, input.actorId, "tickets.reply");
    await lockReplies(trx);
    const reply = await replyOrRefuse(trx, input.id);
    const ids = (
      await trx
        .selectFrom("canned_replies")
        .select(["id", "position"])
        .orderBy("position")
        .orderBy("id")
        .execute()
    ).map((row) => ({ id: Number(row.id), position: row.position }));
    const from = ids.findIndex((row) => row.id === reply.id);
    const to = input.direction === "up" ? from - 1 : from + 1;
    if (to < 0 || to >= ids.length)
      refuse<CannedReplyResult>("conflict", "admin-tickets.cannedReplies.errors.cannotMove");
    [ids[from], ids[to]] = [ids[to]!, ids[from]!];
    // Positions 0, 1, 2… in the new order: a list whose positions had gaps or ties comes out even.
    for (const [index, row] of ids.entries())
      if (row.position !== index)
        await trx
          .updateTable("canned_replies")
          .set({ position: index })
          .where("id", "=", row.id)
          .execute();
    await record(trx, {
      type: "cannedReply.moved",
      actorId: input.actorId,
      replyId: reply.id,
      from,
      to,
    });
    return { ok: true as const, reply: { ...reply, position: to } };
  });
}

/** Deletes a reply for good: what was sent with it stays in the tickets, as any message. */
export async function deleteCannedReply(
  db: Db,
  input: { actorId: string; id: number },
): Promise<CannedReplyResult> {
  return inTransaction(db, async (trx) => {
    await requireStaffPermission(trx, input.actorId, "tickets.reply");
    const reply = await replyOrRefuse(trx, input.id);
    await trx.deleteFrom("canned_replies").where("id", "=", reply.id).execute();
    await record(trx, { type: "cannedReply.deleted", actorId: input.actorId, reply });
    return { ok: true as const, reply };
  });
}

/** What each action says once done (admin-tickets namespace, with the reply's title). */
const DONE = {
  create: "admin-tickets.cannedReplies.created",
  update: "admin-tickets.cannedReplies.updated",
  up: "admin-tickets.cannedReplies.moved",
  down: "admin-tickets.cannedReplies.moved",
  delete: "admin-tickets.cannedReplies.deleted",
} as const;

export type CannedReplyOutcome = EditorOutcome<typeof DONE, Refused> & { title?: string };

/** /admin/tickets/replies' one action: a save (create, update) or a row's button (up, down, delete). */
export async function runCannedReplyAction(
  db: Db,
  actorId: string,
  action: CannedReplyAction,
): Promise<CannedReplyOutcome> {
  const result =
    action.intent === "create"
      ? await createCannedReply(db, { actorId, reply: action.reply })
      : action.intent === "update"
        ? await updateCannedReply(db, { actorId, id: action.id, reply: action.reply })
        : action.intent === "delete"
          ? await deleteCannedReply(db, { actorId, id: action.id })
          : await moveCannedReply(db, { actorId, id: action.id, direction: action.intent });
  const outcome = editorOutcome(result, (saved) => saved.reply.id, DONE[action.intent]);
  return result.ok ? { ...outcome, title: result.reply.title } : outcome;
}

/**
 * Writes the replies a new install starts with (CANNED_REPLY_SEEDS, in the three languages), at every
 * start (prepareDatabase) but only into a list the staff have never touched: none is there and the audit
 * log has no change to one, so replies the staff deleted do not come back. Several processes starting
 * at once write them once (the titles' unique index).
 */
export async function seedCannedReplies(db: Db): Promise<void> {
  const any = await db.selectFrom("canned_replies").select("id").limit(1).executeTakeFirst();
  if (any) return;
  const touched = await db
    .selectFrom("audit_log")
    .select("id")
    .where("target_type", "=", "canned_reply")
    .limit(1)
    .executeTakeFirst();
  if (touched) return;
  const now = new Date().toISOString();
  await db
    .insertInto("canned_replies")
    .values(
      CANNED_REPLY_SEEDS.map((seed, position) => ({
        ...columnsOf(seed),
        position,
        created_by: null,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.column("title_key").doNothing())
    .execute();
}
