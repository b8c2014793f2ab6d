import sharp from "sharp";
import { beforeAll, expect, it } from "vitest";
import { listPaymentMethodsForAdmin } from "~/domain/payments/payment-methods.server";
import { requestTopUp } from "~/domain/payments/top-up-requests.server";
import { UPLOADED_IMAGE_POLICY } from "~/http/file-response.server";
import { signedInCookie } from "../support/account-fixtures";
import { appFetch, dataUrl, type AppFetch } from "../support/app-harness";
import { customerWithCoins, expectLedgerIntactAfterEach } from "../support/money-fixtures";
import {
  htmlFile,
  pdfProof,
  phoneJpeg,
  pngProof,
  uploadForm,
  type TestUpload,
} from "../support/proof-files";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

/**
 * Proof files through the app as a browser reaches it (docs/payments.md#proof-files): the "I have paid"
 * upload of /dashboard/top-up, the files listed on the customer's page and in the admin's queue, and
 * /dashboard/top-up/proofs/:id, which serves a file to its owner and to admins only, under headers that
 * keep it a file.
 */
describeEachDatabase("proof files through the pages", (app) => {
  expectLedgerIntactAfterEach(app);
  let fetchApp: AppFetch;
  let adminCookie: string;
  let signIns = 0;
  beforeAll(async () => {
    fetchApp = appFetch(app());
    adminCookie = await signedInCookie(app(), TEST_ADMIN, { ip: "10.63.0.1" });
  });

  /** A new customer, signed in, with an open cashPlus request for 10 coins. */
  async function customerWithRequest() {
    const method = (await listPaymentMethodsForAdmin(app().db)).find((m) => m.code === "cashplus")!;
    await app()
      .db.updateTable("payment_methods")
      .set({ enabled: 1, instructions: JSON.stringify({ en: "Pay at cashPlus", fr: "", ar: "" }) })
      .where("id", "=", method.id)
      .execute();
    const id = await customerWithCoins(app(), 0);
    const { email } = await app()
      .db.selectFrom("users")
      .select("email")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const cookie = await signedInCookie(
      app(),
      { email, password: "Buyer-pw-8842" },
      { ip: `10.63.1.${++signIns}` },
    );
    const asked = await requestTopUp(app().db, { userId: id, methodId: method.id, coins: 10 });
    if (!asked.ok) throw new Error(asked.error);
    return { id, cookie, request: asked.request };
  }

  const today = () => new Date().toISOString().slice(0, 10);

  /** "I have paid" with files, as the page's form posts it (its data request, as React Router sends). */
  async function sayPaid(
    who: { cookie: string; request: { id: number } },
    files: TestUpload[],
  ): Promise<{ status: number; body: string }> {
    const response = await fetchApp(dataUrl("/dashboard/top-up"), {
      cookie: who.cookie,
      body: uploadForm(
        {
          intent: "paid",
          requestId: String(who.request.id),
          payerAccount: "0612",
          paidOn: today(),
        },
        files,
      ),
    });
    return { status: response.status, body: await response.text() };
  }

  async function proofsOf(requestId: number) {
    return app()
      .db.selectFrom("top_up_proofs")
      .select(["id", "file_name", "content_type", "bytes"])
      .where("top_up_request_id", "=", requestId)
      .orderBy("id")
      .execute();
  }

  it("uploads with “I have paid” and lists the files on the customer's page and in the queue", async () => {
    const buyer = await customerWithRequest();
    const sent = await sayPaid(buyer, [await pngProof("capture écran.png"), pdfProof("reçu.pdf")]);
    expect(sent.status).toBe(200);
    expect(sent.body).toContain("payments.topUps.markedPaid");
    const stored = await proofsOf(buyer.request.id);
    expect(stored.map((row) => [row.file_name, row.content_type])).toEqual([
      ["capture écran.png", "image/png"],
      ["reçu.pdf", "application/pdf"],
    ]);

    // The customer's page names them with their sizes and links to them.
    const page = await fetchApp("/dashboard/top-up", { cookie: buyer.cookie });
    const html = await page.text();
    expect(html).toContain("Attached files");
    // The image opens in a tab; the PDF is a download.
    expect(html).toMatch(
      new RegExp(
        `href="/dashboard/top-up/proofs/${stored[0]!.id}" target="_blank" rel="noreferrer"`,
      ),
    );
    expect(html).toContain(`href="/dashboard/top-up/proofs/${stored[1]!.id}" download="reçu.pdf"`);
    expect(html).toContain("capture écran.png");
    expect(html).toMatch(/reçu\.pdf<\/a><span[^>]*>\d+ kB</);
    expect(html).toMatch(/<form[^>]+enctype="multipart\/form-data"/i);

    // The admin's queue shows the image by its preview (64 × 48: never enlarged), which opens the file,
    // and the PDF as a download link.
    const queue = await (
      await fetchApp("/admin/top-ups?state=proof_sent", { cookie: adminCookie })
    ).text();
    expect(queue).toMatch(
      new RegExp(
        `<a href="/dashboard/top-up/proofs/${stored[0]!.id}" target="_blank" rel="noreferrer"[^>]*><img src="/dashboard/top-up/proofs/${stored[0]!.id}/thumbnail" alt="capture écran.png" width="64" height="48" loading="lazy"`,
      ),
    );
    expect(queue).not.toContain(`src="/dashboard/top-up/proofs/${stored[0]!.id}"`);
    expect(queue).toContain(`aria-label="Download the PDF reçu.pdf"`);
    expect(queue).toContain(`download="reçu.pdf"`);
  });

  it("answers a refused file on the form's file field, in the reader's words, and keeps nothing", async () => {
    const buyer = await customerWithRequest();
    const refused = await sayPaid(buyer, [htmlFile("receipt.png")]);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain("payments.errors.proofType");
    expect(refused.body).toContain("receipt.png");
    expect(await proofsOf(buyer.request.id)).toEqual([]);
    // A wrong state: once cancelled, the request takes no file.
    await fetchApp(dataUrl("/dashboard/top-up"), {
      cookie: buyer.cookie,
      form: { intent: "cancel", requestId: String(buyer.request.id) },
    });
    const late = await sayPaid(buyer, [await pngProof("late.png", { colour: "#123456" })]);
    expect(late.status).toBe(409);
    expect(late.body).toContain("payments.errors.topUpNotOpen");
    expect(await proofsOf(buyer.request.id)).toEqual([]);
  });

  it("serves a file to its owner and to admins with headers that keep it a file; to anyone else, 404", async () => {
    const owner = await customerWithRequest();
    const photo = await phoneJpeg("صورة الإيصال.jpg");
    expect((await sayPaid(owner, [photo, pdfProof("virement.pdf")])).status).toBe(200);
    const [image, pdf] = await proofsOf(owner.request.id);

    for (const cookie of [owner.cookie, adminCookie]) {
      const response = await fetchApp(`/dashboard/top-up/proofs/${image!.id}`, { cookie });
      expect(response.status).toBe(200);
      expect(Object.fromEntries(response.headers)).toMatchObject({
        "content-type": "image/jpeg",
        "content-disposition": `inline; filename="____ _______.jpg"; filename*=UTF-8''${encodeURIComponent("صورة الإيصال.jpg")}`,
        "x-content-type-options": "nosniff",
        "cache-control": "private, no-store",
        "content-security-policy": UPLOADED_IMAGE_POLICY,
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.equals(Buffer.from(image!.bytes))).toBe(true);
      // What is served is the re-encoded image: no EXIF.
      expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    }
    const served = await fetchApp(`/dashboard/top-up/proofs/${pdf!.id}`, { cookie: owner.cookie });
    expect(Object.fromEntries(served.headers)).toMatchObject({
      "content-type": "application/pdf",
      // Downloaded, not opened in the browser's viewer as a document of the site.
      "content-disposition": 'attachment; filename="virement.pdf"',
      "x-content-type-options": "nosniff",
      "content-security-policy": UPLOADED_IMAGE_POLICY,
    });

    // Another customer: exactly what an id that is no file gets.
    const stranger = await customerWithRequest();
    const theirs = await fetchApp(`/dashboard/top-up/proofs/${image!.id}`, {
      cookie: stranger.cookie,
    });
    const missing = await fetchApp("/dashboard/top-up/proofs/999999", { cookie: owner.cookie });
    const nonsense = await fetchApp("/dashboard/top-up/proofs/..%2F1", { cookie: owner.cookie });
    for (const response of [theirs, missing, nonsense]) {
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await response.text()).toBe("Page not found");
    }
    // Nobody signed in: the sign-in page, coming back here afterwards.
    const anonymous = await fetchApp(`/dashboard/top-up/proofs/${image!.id}`);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toBe(
      `/login?redirectTo=${encodeURIComponent(`/dashboard/top-up/proofs/${image!.id}`)}`,
    );
  });

  it("serves an image's preview to the file's owner and admins, kept by their browser; to anyone else, 404", async () => {
    const owner = await customerWithRequest();
    const photo = await phoneJpeg("صورة الإيصال.jpg");
    expect((await sayPaid(owner, [photo, pdfProof("virement.pdf")])).status).toBe(200);
    const [image, pdf] = await proofsOf(owner.request.id);
    const preview = `/dashboard/top-up/proofs/${image!.id}/thumbnail`;

    for (const cookie of [owner.cookie, adminCookie]) {
      const response = await fetchApp(preview, { cookie });
      expect(response.status).toBe(200);
      expect(Object.fromEntries(response.headers)).toMatchObject({
        "content-type": "image/webp",
        "content-disposition": `inline; filename="____ _______.webp"; filename*=UTF-8''${encodeURIComponent("صورة الإيصال.webp")}`,
        "x-content-type-options": "nosniff",
        // Kept by no cache, as the original: a shared device keeps no receipt after sign-out.
        "cache-control": "private, no-store",
        "content-security-policy": UPLOADED_IMAGE_POLICY,
        "cross-origin-resource-policy": "same-origin",
      });
      const read = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      // The upright file (30 × 60) as it is: smaller than the bound, never enlarged.
      expect(read).toMatchObject({ format: "webp", width: 30, height: 60 });
    }

    // Another customer, a PDF (no preview), an id that is no file: the file route's 404.
    const stranger = await customerWithRequest();
    for (const [path, cookie] of [
      [preview, stranger.cookie],
      [`/dashboard/top-up/proofs/${pdf!.id}/thumbnail`, owner.cookie],
      ["/dashboard/top-up/proofs/999999/thumbnail", adminCookie],
      ["/dashboard/top-up/proofs/x/thumbnail", owner.cookie],
    ] as const) {
      const response = await fetchApp(path, { cookie });
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      // Never kept: a preview yet to be made is there once the worker has made it.
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.text()).toBe("Page not found");
    }
    const anonymous = await fetchApp(preview);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toBe(
      `/login?redirectTo=${encodeURIComponent(preview)}`,
    );
  });
});
