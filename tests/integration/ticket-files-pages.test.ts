import { beforeAll, expect, it } from "vitest";
import { UPLOADED_IMAGE_POLICY } from "~/http/file-response.server";
import { signedInCookie } from "../support/account-fixtures";
import { appFetch, dataUrl, type AppFetch } from "../support/app-harness";
import { customerWithCoins } from "../support/money-fixtures";
import { htmlFile, pdfProof, pngProof, type TestUpload } from "../support/proof-files";
import { staffMember, STAFF_MEMBER_PASSWORD } from "../support/staff-members";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

/** A multipart form as a browser sends a ticket's message: its fields, then each file in `files`. */
function ticketForm(fields: Record<string, string>, files: TestUpload[]): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  for (const file of files)
    form.append("files", new File([new Uint8Array(file.bytes)], file.name, { type: "image/png" }));
  return form;
}

const serverLog: TestUpload = {
  name: "latest.log",
  bytes: new TextEncoder().encode("[12:00:04] ERROR: <script>port 7777 in use</script>\n"),
};

/**
 * Files with tickets through the app as a browser reaches it (docs/self-service.md#files-with-tickets):
 * the new ticket's and the replies' multipart forms, the thread's links, and /support/:id/files/:fileId,
 * which serves a file to the ticket's customer and to the staff who answer tickets, under headers that
 * keep it a file; the staff's internal note, which the customer's page never shows.
 */
describeEachDatabase("files with tickets through the pages", (app) => {
  let fetchApp: AppFetch;
  let adminCookie: string;
  let signIns = 0;
  beforeAll(async () => {
    fetchApp = appFetch(app());
    adminCookie = await signedInCookie(app(), TEST_ADMIN, { ip: "10.64.0.1" });
  });

  async function cookieOf(id: string, password = "Buyer-pw-8842") {
    const { email } = await app()
      .db.selectFrom("users")
      .select("email")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    return signedInCookie(app(), { email, password }, { ip: `10.64.1.${++signIns}` });
  }

  async function customer() {
    const id = await customerWithCoins(app(), 0);
    return { id, cookie: await cookieOf(id) };
  }

  async function openWith(cookie: string, files: TestUpload[], message = "See the screenshot") {
    return fetchApp(dataUrl("/support/new"), {
      cookie,
      body: ticketForm(
        {
          department: "technical",
          priority: "high",
          subject: "Crash at start",
          message,
          idempotencyKey: crypto.randomUUID(),
        },
        files,
      ),
    });
  }

  async function filesOf(userId: string) {
    return app()
      .db.selectFrom("ticket_files")
      .innerJoin("tickets", "tickets.id", "ticket_files.ticket_id")
      .select(["ticket_files.id", "ticket_files.ticket_id", "ticket_files.file_name"])
      .where("tickets.user_id", "=", userId)
      .orderBy("ticket_files.id")
      .execute();
  }

  it("opens a ticket with files, lists them in the thread, and serves each with safe headers", async () => {
    const owner = await customer();
    const opened = await openWith(owner.cookie, [
      await pngProof("écran.png"),
      serverLog,
      pdfProof("facture.pdf"),
    ]);
    expect(opened.status).toBe(202);
    const [image, log, pdf] = await filesOf(owner.id);
    const ticketId = image!.ticket_id;
    const path = (file: { id: number }) => `/support/${ticketId}/files/${file.id}`;

    // The thread shows the image as a picture that opens it, the others as downloads.
    const page = await (await fetchApp(`/support/${ticketId}`, { cookie: owner.cookie })).text();
    expect(page).toMatch(/<form[^>]+enctype="multipart\/form-data"/i);
    expect(page).toContain(`<img src="${path(image!)}" alt="écran.png" width="64" height="48"`);
    expect(page).toContain(`href="${path(log!)}" download="latest.log"`);
    expect(page).toContain(`href="${path(pdf!)}" download="facture.pdf"`);

    for (const cookie of [owner.cookie, adminCookie]) {
      const response = await fetchApp(path(image!), { cookie });
      expect(response.status).toBe(200);
      expect(Object.fromEntries(response.headers)).toMatchObject({
        "content-type": "image/png",
        "content-disposition": `inline; filename="_cran.png"; filename*=UTF-8''%C3%A9cran.png`,
        "x-content-type-options": "nosniff",
        "cache-control": "private, no-store",
        "content-security-policy": UPLOADED_IMAGE_POLICY,
      });
      expect(UPLOADED_IMAGE_POLICY).toMatch(/^default-src 'none'/);
    }
    // Anything not an image is a download; a log is read as UTF-8 text, never as a page.
    const logResponse = await fetchApp(path(log!), { cookie: owner.cookie });
    expect(Object.fromEntries(logResponse.headers)).toMatchObject({
      "content-type": "text/plain; charset=utf-8",
      "content-disposition": 'attachment; filename="latest.log"',
      "x-content-type-options": "nosniff",
      "content-security-policy": UPLOADED_IMAGE_POLICY,
    });
    expect(await logResponse.text()).toBe(new TextDecoder().decode(serverLog.bytes));
    const pdfResponse = await fetchApp(path(pdf!), { cookie: adminCookie });
    expect(pdfResponse.headers.get("content-disposition")).toBe(
      'attachment; filename="facture.pdf"',
    );

    // A member of the staff who answers tickets reads it; one who does not is refused by the guard.
    const support = await staffMember(app(), "support");
    const billing = await staffMember(app(), "billing");
    const supportCookie = await cookieOf(support, STAFF_MEMBER_PASSWORD);
    expect((await fetchApp(path(image!), { cookie: supportCookie })).status).toBe(200);
    const billingCookie = await cookieOf(billing, STAFF_MEMBER_PASSWORD);
    expect((await fetchApp(path(image!), { cookie: billingCookie })).status).toBe(403);

    // Another customer: exactly what an id that is no file gets.
    const stranger = await customer();
    for (const url of [
      path(image!),
      `/support/${ticketId}/files/999999`,
      `/support/${ticketId}/files/..%2F1`,
    ]) {
      const response = await fetchApp(url, {
        cookie: url === path(image!) ? stranger.cookie : owner.cookie,
      });
      expect(response.status, url).toBe(404);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await response.text()).toBe("Page not found");
    }
    // Nobody signed in: the sign-in page, coming back here afterwards.
    const anonymous = await fetchApp(path(image!));
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toBe(
      `/login?redirectTo=${encodeURIComponent(path(image!))}`,
    );
  });

  it("refuses a file that is not what its name says with its name, keeps what was typed, stores nothing", async () => {
    const owner = await customer();
    const refused = await openWith(
      owner.cookie,
      [await pngProof("fine.png"), htmlFile("screenshot.png")],
      "My words stay",
    );
    expect(refused.status).toBe(400);
    const body = await refused.text();
    expect(body).toContain("tickets.files.errors.misnamed");
    expect(body).toContain("screenshot.png");
    expect(body).toContain("My words stay");
    expect(await filesOf(owner.id)).toEqual([]);
    expect(
      await app().db.selectFrom("tickets").select("id").where("user_id", "=", owner.id).execute(),
    ).toEqual([]);

    // The page without JavaScript: the form again, the message under the files, the text in its box.
    const form = ticketForm(
      {
        department: "technical",
        priority: "high",
        subject: "Crash",
        message: "Typed before the refusal",
        idempotencyKey: crypto.randomUUID(),
      },
      [htmlFile("shot.png")],
    );
    const html = await (
      await fetchApp("/support/new", { cookie: owner.cookie, body: form })
    ).text();
    expect(html).toContain("shot.png is not what its name says: its content is not a .png file.");
    expect(html).toContain("Typed before the refusal</textarea>");
  });

  it("lets the staff reply with a file and add an internal note the customer's page never shows", async () => {
    const owner = await customer();
    expect((await openWith(owner.cookie, [])).status).toBe(202);
    const [ticket] = await app()
      .db.selectFrom("tickets")
      .select("id")
      .where("user_id", "=", owner.id)
      .execute();
    const staffPost = (fields: Record<string, string>, files: TestUpload[] = []) =>
      fetchApp(dataUrl(`/admin/tickets/${ticket!.id}`), {
        cookie: adminCookie,
        body: ticketForm(
          { intent: "reply", idempotencyKey: crypto.randomUUID(), ...fields },
          files,
        ),
      });
    expect((await staffPost({ message: "Here is a fixed config" }, [serverLog])).status).toBe(200);
    const noted = await staffPost({ message: "Customer is on node 3, overloaded", internal: "on" });
    expect(noted.status).toBe(200);
    expect(await noted.text()).toContain("tickets.notes.added");

    const staffPage = await (
      await fetchApp(`/admin/tickets/${ticket!.id}`, { cookie: adminCookie })
    ).text();
    expect(staffPage).toContain("Customer is on node 3, overloaded");
    expect(staffPage).toContain("Internal note");
    const customerPage = await (
      await fetchApp(`/support/${ticket!.id}`, { cookie: owner.cookie })
    ).text();
    expect(customerPage).toContain("Here is a fixed config");
    expect(customerPage).toContain('download="latest.log"');
    expect(customerPage).not.toContain("node 3");
    expect(customerPage).not.toContain("Internal note");
    // The note left the ticket answered by the reply before it.
    const { status } = await app()
      .db.selectFrom("tickets")
      .select("status")
      .where("id", "=", ticket!.id)
      .executeTakeFirstOrThrow();
    expect(status).toBe("answered");
  });
});
