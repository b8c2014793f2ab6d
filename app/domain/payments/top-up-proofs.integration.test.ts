import sharp from "sharp";
import { expect, it } from "vitest";
import { JOB_HANDLERS, SCHEDULES } from "~/domain/jobs/registry.server";
import { isCronExpression } from "~/domain/jobs/schedule-slots";
import { MAIL_SEND_JOB } from "~/domain/mail/mail-sender.server";
import { defaultSettings } from "~/domain/settings/settings";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import {
  adminId,
  customerWithCoins,
  expectLedgerIntactAfterEach,
} from "../../../tests/support/money-fixtures";
import {
  htmlFile,
  oversizedPng,
  pdfProof,
  phoneJpeg,
  pixelBomb,
  webpProof,
  pngProof,
  type TestUpload,
} from "../../../tests/support/proof-files";
import { readRow, readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { steppedWorker } from "../../../tests/support/stepped-worker";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { listPaymentMethodsForAdmin } from "./payment-methods.server";
import { MAX_PROOF_BYTES, PROOF_POSTS_PER_HOUR } from "./top-up-proofs";
import { PROOF_RETENTION_JOB } from "./proof-retention-jobs.server";
import {
  deleteExpiredProofs,
  listProofsForQueue,
  listProofsOf,
  readTopUpProof,
} from "./top-up-proofs.server";
import { approveTopUp, rejectTopUp } from "./top-up-decisions.server";
import { cancelTopUp, markTopUpPaid, requestTopUp } from "./top-up-requests.server";
import { loadTopUpPage, loadTopUpQueuePage } from "./top-ups.server";

const today = () => new Date().toISOString().slice(0, 10);
const YEAR = 365.25 * 86_400_000;

/** A whole PDF of exactly `size` bytes: its page's title made as long as it takes. */
function pdfOfSize(name: string, size: number): TestUpload {
  let title = "";
  for (;;) {
    const pdf = pdfProof(name, title);
    if (pdf.bytes.length === size) return pdf;
    title = "x".repeat(title.length + size - pdf.bytes.length);
  }
}

describeEachDatabase("proof files of top-up requests", (app) => {
  expectLedgerIntactAfterEach(app);

  /** cashPlus switched on: 11.00 MAD a coin, 1 to 1,000 coins. */
  async function cashPlus() {
    const method = (await listPaymentMethodsForAdmin(app().db)).find((m) => m.code === "cashplus")!;
    await app()
      .db.updateTable("payment_methods")
      .set({
        enabled: 1,
        instructions: JSON.stringify({ en: "Pay at a cashPlus agency", fr: "", ar: "" }),
      })
      .where("id", "=", method.id)
      .execute();
    return method.id;
  }

  /** A new customer's open request for 10 coins. */
  async function openRequest() {
    const userId = await customerWithCoins(app(), 0);
    const asked = await requestTopUp(app().db, { userId, methodId: await cashPlus(), coins: 10 });
    if (!asked.ok) throw new Error(asked.error);
    return { userId, request: asked.request };
  }

  const paid = (
    userId: string,
    requestId: number,
    proofs: TestUpload[],
    payerAccount = "0612 345 678",
  ) => markTopUpPaid(app().db, { userId, requestId, payerAccount, paidOn: today(), proofs });

  /** "I have paid" on 15 June 2026, at `now` (a moment of that day). */
  const paidOnJune15 = (userId: string, requestId: number, proofs: TestUpload[], now: Date) =>
    markTopUpPaid(app().db, {
      userId,
      requestId,
      payerAccount: "0600",
      paidOn: "2026-06-15",
      proofs,
      now,
    });

  async function stateOf(requestId: number) {
    return readRow(app().db, "top_up_requests", ["state", "payer_account"], { id: requestId });
  }

  async function storedOf(requestId: number) {
    return readRows(
      app().db,
      "top_up_proofs",
      ["content_type", "file_name", "byte_size", "bytes", "width", "height", "user_id"],
      { top_up_request_id: requestId },
      "id",
    );
  }

  it("reads no file of a post bound to be refused: another's request, a decided one, one that is full", async () => {
    // Each post carries a file the reading would refuse (a PNG declaring 20000 x 20000 pixels): the
    // answer is the request's, so no file was read first.
    const now = new Date("2026-06-15T10:00:00Z");
    const post = (userId: string, requestId: number, proofs: TestUpload[]) =>
      paidOnJune15(userId, requestId, proofs, now);
    const bomb = await pixelBomb("bomb.png");
    const mine = await openRequest();
    const other = await openRequest();

    // Another customer's request, and one that does not exist: the same answer.
    expect(await post(mine.userId, other.request.id, [bomb])).toEqual(
      refusal("notFound", "payments.errors.topUpNotFound"),
    );
    expect(await post(mine.userId, 999_999, [bomb])).toEqual(
      refusal("notFound", "payments.errors.topUpNotFound"),
    );

    // Three files held already: no room for a fourth.
    const three = await Promise.all(
      ["#a11", "#a22", "#a33"].map((colour, i) => pngProof(`${i}.png`, { colour })),
    );
    expect(await post(mine.userId, mine.request.id, three)).toMatchObject({ ok: true });
    expect(await post(mine.userId, mine.request.id, [bomb])).toEqual({
      ...refusal("conflict", "payments.errors.proofTooMany"),
      field: "proofs",
      params: { max: 3, held: 3 },
    });

    // Decided (here: cancelled by its owner): refused as no longer open.
    expect(
      await cancelTopUp(app().db, { userId: other.userId, requestId: other.request.id }),
    ).toMatchObject({ ok: true });
    expect(await post(other.userId, other.request.id, [bomb])).toEqual(
      refusal("conflict", "payments.errors.topUpNotOpen"),
    );

    // The same file on an open request with room is read, and refused for its pixels.
    const fresh = await openRequest();
    expect(await post(fresh.userId, fresh.request.id, [bomb])).toMatchObject({
      ok: false,
      error: "payments.errors.proofTooManyPixels",
    });
    expect(await storedOf(other.request.id)).toEqual([]);
    expect(await storedOf(fresh.request.id)).toEqual([]);
  });

  it("limits an account's posts of files per hour, refused ones counted, before any file is read", async () => {
    const start = new Date("2026-06-15T10:00:00Z");
    const post = paidOnJune15;
    const bomb = await pixelBomb("bomb.png");
    const mine = await openRequest();
    const other = await openRequest();
    // The hour's posts, each to a request that is not the account's: each refused, each counted.
    for (let i = 0; i < PROOF_POSTS_PER_HOUR; i++)
      expect(
        await post(mine.userId, 999_999, [bomb], new Date(start.getTime() + i * 60_000)),
      ).toEqual(refusal("notFound", "payments.errors.topUpNotFound"));
    // The next, to its own open request with a good file: refused for the hour, the file unread.
    const next = new Date(start.getTime() + 30 * 60_000);
    expect(await post(mine.userId, mine.request.id, [await pngProof("ok.png")], next)).toEqual({
      ...refusal("limited", "payments.errors.tooManyProofPosts"),
      field: "proofs",
      // The hour is counted in slots of ten minutes: the first posts leave it at 11:10, 40 minutes on.
      params: { count: 40 },
    });
    expect(await storedOf(mine.request.id)).toEqual([]);
    // A post without files is not counted ("I have paid" again with the payer's details alone), and
    // another account has its own hour.
    expect(
      await post(other.userId, other.request.id, [await pngProof("o.png")], next),
    ).toMatchObject({ ok: true });
    // Once the first posts have left the count, the account posts again.
    const later = new Date(start.getTime() + 70 * 60_000);
    expect(
      await post(mine.userId, mine.request.id, [await pngProof("ok.png")], later),
    ).toMatchObject({ ok: true });
  });

  it("attaches one to three files with “I have paid”, more while it waits, and none once decided", async () => {
    const db = app().db;
    const { userId, request } = await openRequest();
    // Marked paid without a file: refused; the request still waits for payment.
    expect(await paid(userId, request.id, [])).toEqual({
      ...refusal("invalid", "payments.errors.proofRequired"),
      field: "proofs",
      params: {},
    });
    expect(await stateOf(request.id)).toEqual({ state: "waiting_payment", payer_account: null });

    const pdf = pdfProof("virement 12-05.pdf");
    expect(await paid(userId, request.id, [await pngProof("capture.png"), pdf])).toMatchObject({
      ok: true,
      request: { state: "proof_sent", payerAccount: "0612 345 678" },
    });
    const stored = await storedOf(request.id);
    expect(stored.map(({ bytes: _b, ...row }) => row)).toEqual([
      {
        content_type: "image/png",
        file_name: "capture.png",
        byte_size: stored[0]!.bytes.length,
        width: 64,
        height: 48,
        user_id: userId,
      },
      {
        content_type: "application/pdf",
        file_name: "virement 12-05.pdf",
        byte_size: pdf.bytes.length,
        width: null,
        height: null,
        user_id: userId,
      },
    ]);
    // A PDF is kept byte for byte.
    expect(Buffer.from(stored[1]!.bytes).equals(Buffer.from(pdf.bytes))).toBe(true);

    // While it waits, the details are corrected and a third file added; the page lists all three.
    expect(
      await paid(userId, request.id, [await phoneJpeg("photo.jpg")], "0699 000 000"),
    ).toMatchObject({ ok: true, request: { payerAccount: "0699 000 000" } });
    const page = await loadTopUpPage(db, userId, "en");
    expect(page.proofs.map((proof) => [proof.fileName, proof.contentType])).toEqual([
      ["capture.png", "image/png"],
      ["virement 12-05.pdf", "application/pdf"],
      ["photo.jpg", "image/jpeg"],
    ]);
    expect(page.proofs[0]).not.toHaveProperty("sameFileAs");

    // A fourth is one too many: refused, and the details sent with it are not kept either.
    expect(
      await paid(userId, request.id, [await pngProof("fourth.png", { colour: "#000" })], "0700"),
    ).toEqual({
      ...refusal("conflict", "payments.errors.proofTooMany"),
      field: "proofs",
      params: { max: 3, held: 3 },
    });
    expect(await stateOf(request.id)).toEqual({
      state: "proof_sent",
      payer_account: "0699 000 000",
    });
    expect(await storedOf(request.id)).toHaveLength(3);

    // Approved, the request takes no more files; its files stay.
    expect(
      await approveTopUp(db, { adminId: await adminId(app()), requestId: request.id }),
    ).toMatchObject({ ok: true });
    expect(
      await paid(userId, request.id, [await pngProof("late.png", { colour: "#0f0" })]),
    ).toEqual(refusal("conflict", "payments.errors.topUpNotOpen"));
    expect(await storedOf(request.id)).toHaveLength(3);
  });

  it("refuses by content, with the file's name and a clear message, and stores nothing", async () => {
    // A new customer for each post: one account's posts of files are limited in an hour.
    const refusedWith = async (files: TestUpload[], error: string, params: object) => {
      const { userId, request } = await openRequest();
      expect(await paid(userId, request.id, files), error).toEqual({
        ...refusal("invalid", error),
        field: "proofs",
        params,
      });
      expect(await storedOf(request.id)).toEqual([]);
      expect((await stateOf(request.id)).state).toBe("waiting_payment");
    };
    // An HTML page named .png.
    await refusedWith([htmlFile("receipt.png")], "payments.errors.proofType", {
      name: "receipt.png",
    });
    // The name as the customer sent it, cut to 60 characters; "?" when nothing of it is left.
    await refusedWith([htmlFile(`${"é".repeat(70)}.png`)], "payments.errors.proofType", {
      name: "é".repeat(60),
    });
    await refusedWith([htmlFile("...")], "payments.errors.proofType", { name: "?" });
    // 6 MB, whatever it is.
    await refusedWith([oversizedPng(6 * 1024 * 1024, "scan.png")], "payments.errors.proofTooBig", {
      name: "scan.png",
      max: 5,
    });
    // One byte over 5 MiB is over; a good file beside it does not save the post.
    await refusedWith(
      [await pngProof("ok.png"), oversizedPng(5 * 1024 * 1024 + 1, "edge.png")],
      "payments.errors.proofTooBig",
      { name: "edge.png", max: 5 },
    );
    // A tiny PNG declaring 20000 × 20000 pixels: refused from its header, never decoded.
    await refusedWith([await pixelBomb("bomb.png")], "payments.errors.proofTooManyPixels", {
      name: "bomb.png",
      max: 16,
    });
    // The ceiling is 16 megapixels: 5000 × 3200 passes it (and is then found not to hold its pixels),
    // one row more does not.
    await refusedWith(
      [await pixelBomb("edge.png", { width: 5000, height: 3200 })],
      "payments.errors.proofUnreadable",
      { name: "edge.png" },
    );
    await refusedWith(
      [await pixelBomb("over.png", { width: 5000, height: 3201 })],
      "payments.errors.proofTooManyPixels",
      { name: "over.png", max: 16 },
    );
    // 8000 × 8000 is under sharp's own limit (268 megapixels) and over the site's 16.
    await refusedWith(
      [await pixelBomb("wide.png", { width: 8000, height: 8000 })],
      "payments.errors.proofTooManyPixels",
      { name: "wide.png", max: 16 },
    );
    // A WebP, which libwebp reads and writes whole, is held to 5 megapixels: 2500 × 2000 is taken, one row
    // more is not.
    const { userId: webpUser, request: webpRequest } = await openRequest();
    expect(
      await paid(webpUser, webpRequest.id, [
        await webpProof("capture.webp", { width: 2500, height: 2000 }),
      ]),
    ).toMatchObject({ ok: true });
    await refusedWith(
      [await webpProof("big.webp", { width: 2500, height: 2001 })],
      "payments.errors.proofTooManyPixels",
      { name: "big.webp", max: 5 },
    );
    // A PNG signature over garbage, and a PDF cut short.
    await refusedWith([oversizedPng(2000, "broken.png")], "payments.errors.proofUnreadable", {
      name: "broken.png",
    });
    const whole = pdfProof();
    await refusedWith(
      [{ name: "cut.pdf", bytes: whole.bytes.subarray(0, whole.bytes.length - 20) }],
      "payments.errors.proofUnreadable",
      { name: "cut.pdf" },
    );
    // Four files in one post.
    const four = await Promise.all(
      ["#111", "#222", "#333", "#444"].map((colour, i) => pngProof(`${i}.png`, { colour })),
    );
    await refusedWith(four, "payments.errors.proofTooMany", { max: 3 });
    // The same file twice.
    const twice = await pngProof("same.png");
    await refusedWith(
      [twice, { ...twice, name: "again.png" }],
      "payments.errors.proofAlreadyAttached",
      { name: "again.png" },
    );
  });

  it("adds a file to the one a request holds, and refuses one it holds already", async () => {
    const { userId, request } = await openRequest();
    const first = await pngProof("first.png", { colour: "#aa00aa" });
    expect(await paid(userId, request.id, [first])).toMatchObject({ ok: true });
    // The same file again, under another name, in a later post.
    expect(await paid(userId, request.id, [{ ...first, name: "again.png" }])).toEqual({
      ...refusal("invalid", "payments.errors.proofAlreadyAttached"),
      field: "proofs",
      params: { name: "again.png" },
    });
    // One held and one sent: two.
    expect(
      await paid(userId, request.id, [await pngProof("second.png", { colour: "#00aa00" })]),
    ).toMatchObject({ ok: true });
    expect((await storedOf(request.id)).map((row) => row.file_name)).toEqual([
      "first.png",
      "second.png",
    ]);
  });

  it("keeps a WebP a WebP, and takes a file of exactly 5 MiB", async () => {
    const { userId, request } = await openRequest();
    const webp = {
      name: "capture.webp",
      bytes: await sharp({
        create: { width: 40, height: 20, channels: 3, background: "#16a34a" },
      })
        .webp()
        .toBuffer(),
    };
    const exact = pdfOfSize("releve.pdf", MAX_PROOF_BYTES);
    expect(await paid(userId, request.id, [webp, exact])).toMatchObject({ ok: true });
    const [image, pdf] = await storedOf(request.id);
    expect(image).toMatchObject({
      content_type: "image/webp",
      file_name: "capture.webp",
      width: 40,
      height: 20,
    });
    expect((await sharp(image!.bytes).metadata()).format).toBe("webp");
    expect(pdf).toMatchObject({ file_name: "releve.pdf", byte_size: MAX_PROOF_BYTES });
  });

  it("decides the type by the content: a PNG named .pdf is stored and served as a PNG", async () => {
    const { userId, request } = await openRequest();
    const png = await pngProof("releve.pdf");
    expect(await paid(userId, request.id, [png])).toMatchObject({ ok: true });
    const [stored] = await storedOf(request.id);
    expect(stored).toMatchObject({ content_type: "image/png", file_name: "releve.png" });
    expect((await sharp(stored!.bytes).metadata()).format).toBe("png");
  });

  it("re-encodes an image upright and without its EXIF, GPS or other metadata", async () => {
    const { userId, request } = await openRequest();
    const photo = await phoneJpeg("IMG_0042.jpg");
    const sent = await sharp(photo.bytes).metadata();
    expect(sent).toMatchObject({ orientation: 6, width: 60, height: 30 });
    expect(sent.exif?.toString("latin1")).toContain("Amine El Idrissi");

    expect(await paid(userId, request.id, [photo])).toMatchObject({ ok: true });
    const [stored] = await storedOf(request.id);
    const kept = await sharp(stored!.bytes).metadata();
    expect(kept).toMatchObject({ format: "jpeg", width: 30, height: 60 });
    expect(kept.orientation).toBeUndefined();
    expect(kept.exif).toBeUndefined();
    expect(kept.xmp).toBeUndefined();
    expect(kept.iptc).toBeUndefined();
    expect(Buffer.from(stored!.bytes).includes("Amine")).toBe(false);
    // libvips keeps no decoded image once the request is done: its operation cache is off.
    expect(sharp.cache()).toMatchObject({ memory: { max: 0 }, items: { max: 0 } });
    expect(stored).toMatchObject({ content_type: "image/jpeg", width: 30, height: 60 });
  });

  it("flags to the admins a file sent before with another request, anyone's, and never refuses it", async () => {
    const db = app().db;
    const screenshot = await pngProof("wallet.png", { colour: "#7c3aed" });
    const first = await openRequest();
    expect(await paid(first.userId, first.request.id, [screenshot])).toMatchObject({ ok: true });
    // The same customer cancels and asks again with the same screenshot; another customer sends it too.
    expect(
      await cancelTopUp(db, { userId: first.userId, requestId: first.request.id }),
    ).toMatchObject({ ok: true });
    const again = await requestTopUp(db, {
      userId: first.userId,
      methodId: await cashPlus(),
      coins: 10,
    });
    if (!again.ok) throw new Error(again.error);
    expect(
      await paid(first.userId, again.request.id, [{ ...screenshot, name: "copie.png" }]),
    ).toMatchObject({ ok: true });
    const other = await openRequest();
    expect(
      await paid(other.userId, other.request.id, [
        screenshot,
        await pngProof("own.png", { colour: "#f59e0b" }),
      ]),
    ).toMatchObject({ ok: true });

    // A request without files has none listed.
    const bare = await openRequest();
    expect(await listProofsForQueue(db, [bare.request.id])).toEqual({});
    const queue = await listProofsForQueue(db, [other.request.id, again.request.id]);
    expect(queue[other.request.id]!.map((proof) => [proof.fileName, proof.sameFileAs])).toEqual([
      ["wallet.png", [first.request.reference, again.request.reference]],
      ["own.png", []],
    ]);
    expect(queue[again.request.id]![0]!.sameFileAs).toEqual([
      first.request.reference,
      other.request.reference,
    ]);
    // The queue's page carries them by request.
    const page = await loadTopUpQueuePage(db, { state: "proof_sent", page: 1 }, "en");
    expect(page.proofs[other.request.id]?.[0]?.sameFileAs).toContain(first.request.reference);
    // The customer's own page names no other request.
    const own = await loadTopUpPage(db, other.userId, "en");
    expect(own.proofs.map((proof) => Object.keys(proof).includes("sameFileAs"))).toEqual([
      false,
      false,
    ]);
  });

  it("hands a file to its owner and to admins only; to anyone else it does not exist", async () => {
    const db = app().db;
    const { userId, request } = await openRequest();
    expect(await paid(userId, request.id, [await pngProof("mine.png")])).toMatchObject({
      ok: true,
    });
    const [proof] = await listProofsOf(db, request.id);
    const stranger = await customerWithCoins(app(), 0);
    const owner = await readTopUpProof(db, { proofId: proof!.id, viewerId: userId });
    expect(owner).toMatchObject({
      ok: true,
      file: { fileName: "mine.png", contentType: "image/png" },
    });
    const admin = await readTopUpProof(db, { proofId: proof!.id, viewerId: await adminId(app()) });
    expect(admin.ok && owner.ok && admin.file.bytes.equals(owner.file.bytes)).toBe(true);
    const notFound = refusal("notFound", "payments.errors.proofNotFound");
    expect(await readTopUpProof(db, { proofId: proof!.id, viewerId: stranger })).toEqual(notFound);
    expect(await readTopUpProof(db, { proofId: 999_999, viewerId: userId })).toEqual(notFound);
    expect(await readTopUpProof(db, { proofId: proof!.id, viewerId: "no-such-user" })).toEqual(
      notFound,
    );
  });

  it("deletes the files of requests closed longer ago than the retention, in batches, on its schedule", async () => {
    const db = app().db;
    const admin = await adminId(app());
    const now = new Date();
    const yearsAgo = (years: number) => new Date(now.getTime() - years * YEAR).toISOString();
    // Each request with two files, closed (or last changed) at a given time.
    async function requestWithFiles(close: "approve" | "reject" | "cancel" | "open", at: string) {
      const { userId, request } = await openRequest();
      const colour = `#${Math.floor(Math.random() * 0xffffff)
        .toString(16)
        .padStart(6, "0")}`;
      expect(
        await paid(userId, request.id, [
          await pngProof("a.png", { colour }),
          pdfProof("b.pdf", colour),
        ]),
      ).toMatchObject({ ok: true });
      if (close === "approve") await approveTopUp(db, { adminId: admin, requestId: request.id });
      if (close === "reject")
        await rejectTopUp(db, { adminId: admin, requestId: request.id, reason: "No payment" });
      if (close === "cancel") await cancelTopUp(db, { userId, requestId: request.id });
      await db
        .updateTable("top_up_requests")
        .set(
          close === "approve" || close === "reject"
            ? { decided_at: at, updated_at: at, created_at: at }
            : { updated_at: at, created_at: at },
        )
        .where("id", "=", request.id)
        .execute();
      return request.id;
    }
    const approvedOld = await requestWithFiles("approve", yearsAgo(11));
    const cancelledOld = await requestWithFiles("cancel", yearsAgo(10.5));
    const rejectedRecent = await requestWithFiles("reject", yearsAgo(9));
    const approvedRecent = await requestWithFiles("approve", yearsAgo(1));
    // Open for twenty years: never deleted, however old (an admin has yet to decide it).
    const openAncient = await requestWithFiles("open", yearsAgo(20));
    const count = async (id: number) => (await listProofsOf(db, id)).length;

    const schedule = SCHEDULES.find((each) => each.name === PROOF_RETENTION_JOB);
    expect(schedule && isCronExpression(schedule.cron)).toBe(true);
    expect(JOB_HANDLERS[schedule!.jobType]).toBeTypeOf("function");
    // The approvals queued their mail (docs/mail.md): with one job a round it would take the rounds.
    await db.deleteFrom("jobs").where("type", "=", MAIL_SEND_JOB).execute();
    let clock = new Date(now.getTime() - 86_400_000);
    const worker = steppedWorker({
      db,
      handlers: JOB_HANDLERS,
      schedules: [schedule!],
      config: { leaseMs: 30_000, pollMs: 1_000, backoffMs: 1_000, concurrency: 1 },
      now: () => clock,
    });
    const runs = async () =>
      (
        await readRows(
          db,
          "job_runs",
          ["status", "counts"],
          { schedule: PROOF_RETENTION_JOB },
          "id",
        )
      ).map((run) => [run.status, JSON.parse(String(run.counts))]);
    try {
      // The first look plans the next slot (04:20); a day later it falls due, then the next day's.
      await worker.tick();
      await worker.idle();
      for (let day = 0; day < 2; day++) {
        clock = new Date(clock.getTime() + 86_400_000);
        // Two rounds a day: one queues the day's run, the next one finds it if the first did not.
        for (let round = 0; round < 2; round++) {
          await worker.tick();
          await worker.idle();
        }
      }
      // Ten years (the default): the approval of eleven years ago and the cancellation of 10.5 go.
      expect(await runs()).toEqual([
        ["succeeded", { proofFiles: 4 }],
        ["succeeded", { proofFiles: 0 }],
      ]);
    } finally {
      await worker.stop(1000);
    }
    expect(
      await Promise.all(
        [approvedOld, cancelledOld, rejectedRecent, approvedRecent, openAncient].map(count),
      ),
    ).toEqual([0, 0, 2, 2, 2]);
    // The requests themselves stay: the ledger and the receipts name them.
    expect(
      await db
        .selectFrom("top_up_requests")
        .select("id")
        .where("id", "in", [approvedOld, cancelledOld])
        .execute(),
    ).toHaveLength(2);

    // Kept five years instead, in batches of one: the rejection of nine years ago goes too.
    await updateSettingsSection(db, "invoicing", {
      ...defaultSettings().invoicing,
      retentionYears: 5,
    });
    try {
      expect(await deleteExpiredProofs(db, { now: new Date(clock), batchSize: 1 })).toBe(2);
      expect(await deleteExpiredProofs(db, { now: new Date(clock), batchSize: 1 })).toBe(0);
    } finally {
      await updateSettingsSection(db, "invoicing", defaultSettings().invoicing);
    }
    expect(await Promise.all([rejectedRecent, approvedRecent, openAncient].map(count))).toEqual([
      0, 2, 2,
    ]);
  });
});
