import sharp from "sharp";
import { expect, it } from "vitest";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import { getSettings } from "~/domain/settings/settings.server";
import { asAdmin, customerWithCoins } from "../../../tests/support/money-fixtures";
import {
  htmlFile,
  oversizedPng,
  pdfProof,
  phoneJpeg,
  pngProof,
  type TestUpload,
} from "../../../tests/support/proof-files";
import { staffMember } from "../../../tests/support/staff-members";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { customerWithTicket } from "../../../tests/support/ticket-fixtures";
import { MAX_TICKET_FILE_BYTES, TICKET_FILE_POSTS_PER_HOUR } from "./ticket-files";
import { purgeExpiredTicketFiles, readTicketFile } from "./ticket-files.server";
import { TICKET_FILE_RETENTION_JOB, ticketFileHandlers } from "./ticket-file-jobs.server";
import {
  customerTicketAction,
  getCustomerTicket,
  getTicketForAdmin,
  openCustomerTicket,
  staffReply,
} from "./tickets.server";

/** A server's log as a customer saves it: plain UTF-8 text. */
const serverLog = (name = "latest.log"): TestUpload => ({
  name,
  bytes: new TextEncoder().encode(
    "[12:00:01] Starting server\n[12:00:04] ERROR: port 7777 in use\n",
  ),
});

const DAY_MS = 24 * 60 * 60_000;

/**
 * Files with tickets through the domain (docs/self-service.md#files-with-tickets): read by their content
 * before the message's transaction, stored with the message or refused with it (nothing of the post is
 * kept), listed with the thread, handed to the ticket's customer and the staff who answer tickets only,
 * and emptied past the retention while the message still names them.
 */
describeEachDatabase("files with tickets", (app) => {
  const open = (userId: string, uploads: TestUpload[], idempotencyKey?: string) =>
    openCustomerTicket(
      app().db,
      {
        userId,
        department: "technical",
        subject: "Server crashes",
        priority: "high",
        message: "It crashes at start, screenshot and log attached.",
        idempotencyKey,
        uploads,
      },
      { ticketsOpen: true },
    );

  async function filesOf(ticketId: number) {
    return app()
      .db.selectFrom("ticket_files")
      .select(["id", "message_id", "file_name", "content_type", "byte_size", "bytes", "removed_at"])
      .where("ticket_id", "=", ticketId)
      .orderBy("id")
      .execute();
  }

  it("stores a new ticket's files with its first message, by their content, and lists them", async () => {
    const owner = await customerWithCoins(app(), 0);
    const opened = await open(owner, [
      await pngProof("Capture d’écran.png"),
      serverLog(),
      pdfProof("facture.pdf"),
      await phoneJpeg(),
    ]);
    if (!opened.ok) throw new Error(opened.error);
    const stored = await filesOf(opened.ticket.id);
    expect(stored.map((row) => [row.file_name, row.content_type])).toEqual([
      ["Capture d’écran.png", "image/png"],
      ["latest.log", "text/plain"],
      ["facture.pdf", "application/pdf"],
      ["IMG_0042.jpg", "image/jpeg"],
    ]);
    // The log and the PDF are kept as sent; the photo written again, upright and without its EXIF.
    expect(new TextDecoder().decode(stored[1]!.bytes!)).toContain("ERROR: port 7777 in use");
    const photo = await sharp(stored[3]!.bytes!).metadata();
    expect([photo.width, photo.height, photo.exif, photo.orientation]).toEqual([
      30,
      60,
      undefined,
      undefined,
    ]);

    const thread = (await getCustomerTicket(app().db, owner, opened.ticket.id))!;
    expect(thread.messages).toHaveLength(1);
    expect(thread.messages[0]!.files.map((file) => [file.fileName, file.removed])).toEqual([
      ["Capture d’écran.png", false],
      ["latest.log", false],
      ["facture.pdf", false],
      ["IMG_0042.jpg", false],
    ]);
    expect(thread.messages[0]!.files[0]).toMatchObject({ width: 64, height: 48 });
    expect(new Set(stored.map((row) => row.message_id))).toEqual(new Set([thread.messages[0]!.id]));
  });

  it("refuses a file not what its name says, too large, too many, with its name, and keeps nothing", async () => {
    const owner = await customerWithCoins(app(), 0);
    const tickets = () =>
      app().db.selectFrom("tickets").select("id").where("user_id", "=", owner).execute();
    const refusals = [
      [
        [await pngProof("ok.png"), htmlFile("screenshot.png")],
        "tickets.files.errors.misnamed",
        { name: "screenshot.png", extension: "png" },
      ],
      [[await pngProof("ok.png"), serverLog("crash.png")], "tickets.files.errors.misnamed", null],
      [[htmlFile("page.html")], "tickets.files.errors.type", { name: "page.html" }],
      [
        [oversizedPng(MAX_TICKET_FILE_BYTES + 1, "huge.png")],
        "tickets.files.errors.tooBig",
        { name: "huge.png", max: 8 },
      ],
      [
        await Promise.all([1, 2, 3, 4, 5, 6].map((n) => pngProof(`${n}.png`))),
        "tickets.files.errors.tooMany",
        { max: 5 },
      ],
      [
        [oversizedPng(MAX_TICKET_FILE_BYTES, "a.png"), oversizedPng(8 * 1024 * 1024, "b.png")],
        "tickets.files.errors.allTooBig",
        { max: 15 },
      ],
      [
        [{ name: "cut.pdf", bytes: new TextEncoder().encode("%PDF-1.4\n1 0 obj") }],
        "tickets.files.errors.unreadable",
        { name: "cut.pdf" },
      ],
    ] as const;
    for (const [uploads, error, params] of refusals) {
      const refused = await open(owner, [...uploads]);
      expect(refused, error).toMatchObject({ ok: false, kind: "invalid", error, field: "files" });
      if (params) expect((refused as { params: unknown }).params).toEqual(params);
    }
    expect(await tickets()).toEqual([]);

    // A reply refused for its file stores no message, and leaves the ticket as it was.
    const { owner: other, ticket } = await customerWithTicket(app());
    const before = (await getCustomerTicket(app().db, other, ticket.id))!;
    const replied = await customerTicketAction(app().db, {
      userId: other,
      ticketId: ticket.id,
      action: {
        intent: "reply",
        message: "Here is the log",
        idempotencyKey: "files-reply-key-0000001",
        uploads: [htmlFile("latest.log.png")],
      },
    });
    expect(replied).toMatchObject({ ok: false, error: "tickets.files.errors.misnamed" });
    expect(await getCustomerTicket(app().db, other, ticket.id)).toEqual(before);
    expect(await filesOf(ticket.id)).toEqual([]);
    // Sent again with a good file under the same key, it is stored (the refusal kept nothing).
    const again = await customerTicketAction(app().db, {
      userId: other,
      ticketId: ticket.id,
      action: {
        intent: "reply",
        message: "Here is the log",
        idempotencyKey: "files-reply-key-0000001",
        uploads: [serverLog()],
      },
    });
    expect(again).toEqual({ ok: true });
    expect((await filesOf(ticket.id)).map((row) => row.file_name)).toEqual(["latest.log"]);
  });

  it("reads nothing of a reply's files for another customer's ticket, and limits a customer's posts", async () => {
    const { ticket } = await customerWithTicket(app());
    const stranger = await customerWithCoins(app(), 0);
    expect(
      await customerTicketAction(app().db, {
        userId: stranger,
        ticketId: ticket.id,
        action: { intent: "reply", message: "x", uploads: [serverLog()] },
      }),
    ).toEqual({ ok: false, kind: "notFound", error: "tickets.errors.notFound" });

    const { owner, ticket: own } = await customerWithTicket(app());
    const now = new Date("2026-06-01T10:00:00Z");
    for (let i = 0; i < TICKET_FILE_POSTS_PER_HOUR; i++)
      expect(
        await customerTicketAction(
          app().db,
          {
            userId: owner,
            ticketId: own.id,
            action: { intent: "reply", message: `log ${i}`, uploads: [serverLog()] },
          },
          now,
        ),
      ).toEqual({ ok: true });
    const limited = await customerTicketAction(
      app().db,
      {
        userId: owner,
        ticketId: own.id,
        action: { intent: "reply", message: "one more", uploads: [serverLog()] },
      },
      now,
    );
    expect(limited).toMatchObject({
      ok: false,
      kind: "limited",
      error: "tickets.files.errors.tooManyPosts",
      params: { count: expect.any(Number) },
    });
    // A reply without files is no upload: it goes on.
    expect(
      await customerTicketAction(
        app().db,
        { userId: owner, ticketId: own.id, action: { intent: "reply", message: "text only" } },
        now,
      ),
    ).toEqual({ ok: true });
  });

  it("hands a file to the ticket's customer and the staff who answer tickets; to anyone else it does not exist", async () => {
    const { db, admin } = await asAdmin(app());
    const owner = await customerWithCoins(app(), 0);
    const opened = await open(owner, [await pngProof("shot.png")]);
    if (!opened.ok) throw new Error(opened.error);
    const ticketId = opened.ticket.id;
    const [file] = await filesOf(ticketId);
    const read = (viewerId: string, fileId = file!.id, ticket = ticketId) =>
      readTicketFile(db, { ticketId: ticket, fileId, viewerId });

    const served = await read(owner);
    expect(served).toMatchObject({
      ok: true,
      file: { fileName: "shot.png", contentType: "image/png" },
    });
    expect(served.ok && Buffer.compare(served.file.bytes, file!.bytes!)).toBe(0);
    expect((await read(admin)).ok).toBe(true);
    expect((await read(await staffMember(app(), "support"))).ok).toBe(true);

    const notFound = { ok: false, kind: "notFound", error: "tickets.files.errors.notFound" };
    expect(await read(await customerWithCoins(app(), 0))).toEqual(notFound);
    // A role that does not answer tickets, however staff.
    expect(await read(await staffMember(app(), "billing"))).toEqual(notFound);
    // The file under another ticket's address, and an id that is no file.
    const { ticket: other } = await customerWithTicket(app());
    expect(await read(owner, file!.id, other.id)).toEqual(notFound);
    expect(await read(owner, file!.id + 10_000)).toEqual(notFound);

    // A staff reply's file is the customer's to read too.
    expect(
      await staffReply(db, {
        actorId: admin,
        ticketId,
        message: "Try this config",
        uploads: [serverLog("server.cfg.txt")],
      }),
    ).toEqual({ ok: true, message: "tickets.admin.replied" });
    const staffFile = (await filesOf(ticketId)).at(-1)!;
    expect(await read(owner, staffFile.id)).toMatchObject({
      ok: true,
      file: { fileName: "server.cfg.txt", contentType: "text/plain" },
    });
    expect((await getTicketForAdmin(db, ticketId))!.messages.map((m) => m.files.length)).toEqual([
      1, 1,
    ]);
  });

  it("empties the files past the retention, in batches, on its schedule, and the thread still names them", async () => {
    const { db } = await asAdmin(app());
    await updateSettingsSection(db, "selfService", {
      ...(await getSettings(db)).selfService,
      ticketFileRetentionDays: 30,
    });
    const sent = new Date("2026-01-10T08:00:00Z");
    const owner = await customerWithCoins(app(), 0);
    const opened = await openCustomerTicket(
      db,
      {
        userId: owner,
        department: "technical",
        subject: "Old crash",
        priority: "low",
        message: "Files",
        uploads: [await pngProof("a.png"), serverLog(), pdfProof()],
      },
      { ticketsOpen: true, now: sent },
    );
    if (!opened.ok) throw new Error(opened.error);
    const ticketId = opened.ticket.id;
    // A file sent later, still within the retention when the first ones go.
    expect(
      await customerTicketAction(
        db,
        {
          userId: owner,
          ticketId,
          action: { intent: "reply", message: "newer", uploads: [serverLog("newer.log")] },
        },
        new Date(sent.getTime() + 20 * DAY_MS),
      ),
    ).toEqual({ ok: true });

    // Within the retention nothing of this ticket goes (the other tests' files, sent at the real
    // clock's time, are theirs to lose or keep).
    await purgeExpiredTicketFiles(db, { now: new Date(sent.getTime() + 29 * DAY_MS) });
    expect((await filesOf(ticketId)).every((row) => row.bytes !== null)).toBe(true);
    const past = new Date(sent.getTime() + 31 * DAY_MS);
    // In batches of two: this ticket's three go, whatever else goes with them.
    expect(await purgeExpiredTicketFiles(db, { now: past, batchSize: 2 })).toBeGreaterThanOrEqual(
      3,
    );
    const rows = await filesOf(ticketId);
    expect(rows.map((row) => [row.file_name, row.bytes === null, row.removed_at])).toEqual([
      ["a.png", true, past.toISOString()],
      ["latest.log", true, past.toISOString()],
      ["virement.pdf", true, past.toISOString()],
      ["newer.log", false, null],
    ]);
    // The sizes stay, and the thread names each file, removed.
    expect(rows[0]!.byte_size).toBeGreaterThan(0);
    const thread = (await getCustomerTicket(db, owner, ticketId))!;
    expect(thread.messages.map((m) => m.files.map((f) => [f.fileName, f.removed]))).toEqual([
      [
        ["a.png", true],
        ["latest.log", true],
        ["virement.pdf", true],
      ],
      [["newer.log", false]],
    ]);
    expect(await readTicketFile(db, { ticketId, fileId: rows[0]!.id, viewerId: owner })).toEqual({
      ok: false,
      kind: "notFound",
      error: "tickets.files.errors.notFound",
    });

    // The nightly job, at its clock: the newer file once its own 30 days have passed, then nothing.
    const run = ticketFileHandlers[TICKET_FILE_RETENTION_JOB]!;
    const later = new Date(sent.getTime() + 51 * DAY_MS);
    const counts = await run({ db, now: later } as Parameters<typeof run>[0]);
    expect(counts).toMatchObject({ ticketFiles: expect.any(Number) });
    expect((await filesOf(ticketId)).every((row) => row.bytes === null)).toBe(true);
    expect(await run({ db, now: later } as Parameters<typeof run>[0])).toEqual({ ticketFiles: 0 });
  });
});
