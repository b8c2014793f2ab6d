import { beforeAll, describe, expect, it } from "vitest";
import { refundFormSchema } from "~/domain/invoices/invoices.schemas";
import { listPaymentMethodsForAdmin } from "~/domain/payments/payment-methods.server";
import { requestTopUp } from "~/domain/payments/top-up-requests.server";
import { can, type Permission, type StaffRole } from "~/domain/staff/permissions";
import { permissionForIntent } from "~/http/route-request.server";
import { dataUrl, flattenRoutes } from "../support/app-harness";
import { pdfProof, uploadForm } from "../support/proof-files";
import { describeEachDatabase } from "../support/test-database";
import { matrixWorld, type Signer } from "./authorization-matrix-harness";
import { accessBySchema, forgedForm, INTENT_PERMISSIONS } from "./authorization-matrix-intents";
import { ADMIN_ACTIONS, intentsOf, ROUTES } from "./authorization-matrix-rows";

/**
 * The staff's side of the authorization matrix: every intent of every staff form (each admin action's,
 * the refund on an invoice's page) posted by each member of the staff whose role lacks its permission,
 * as a page's form and as React Router's data request, answers 403 naming the permission and changes
 * nothing; the proof files of top-ups are for the roles that decide them; and a member whose role is
 * missing holds no permission at all.
 */

const pages = flattenRoutes().filter((route) => !route.layout);

/** Each staff form's schemas by route: the admin actions', and the refund on /invoices/:number. */
const STAFF_FORMS = { ...ADMIN_ACTIONS, "/invoices/:number": { refundFormSchema } };
/** Admin routes without a page (a post, then elsewhere): their refusals are data, not the shell's page. */
const RESOURCE_ROUTES = new Set(["/admin/clients/:id/view-as"]);

/** The members that lack some permission (the owner holds them all), and the role each signs in with. */
const LACKING: Partial<Record<Signer, StaffRole | null>> = {
  billing: "billing",
  support: "support",
  technician: "technician",
  noRole: null,
};

it("says for every intent of every staff form what its route module's access asks", () => {
  expect(Object.keys(INTENT_PERMISSIONS).sort()).toEqual(Object.keys(STAFF_FORMS).sort());
  for (const [pattern, schemas] of Object.entries(STAFF_FORMS)) {
    const route = pages.find((page) => page.pattern === pattern);
    expect(route, pattern).toBeDefined();
    const access = accessBySchema(route!.file);
    const asked: Record<string, Permission | null> = {};
    for (const [name, schema] of Object.entries(schemas)) {
      expect(Object.keys(access), `app/${route!.file}: the access of ${name}`).toContain(name);
      for (const intent of intentsOf(schema))
        asked[intent] = permissionForIntent(access[name]!, intent);
    }
    expect(asked, `${pattern}: INTENT_PERMISSIONS against app/${route!.file}`).toEqual(
      INTENT_PERMISSIONS[pattern],
    );
  }
});

it("reads an access the way the guard does, so the comparison above can fail", () => {
  // The reader finds the object form, with its default, in a module that writes one.
  const clients = pages.find((page) => page.pattern === "/admin/clients")!;
  expect(accessBySchema(clients.file)).toEqual({
    clientActionSchema: { "*": "clients.edit", coins: "coins.adjust" },
  });
  // And a list editor's permission, from its list.
  const gateways = pages.find((page) => page.pattern === "/admin/gateways")!;
  expect(accessBySchema(gateways.file)).toEqual({
    paymentMethodActionSchema: "gateways.manage",
    providerSettingsActionSchema: "gateways.manage",
  });
});

describeEachDatabase("authorization matrix: the staff's refusals", (app) => {
  const world = matrixWorld(app);
  const { fetchApp, cookies, expectAnswer, expectClean, expectRefusal } = world;
  const { fingerprint, expectUnchanged } = world;

  for (const [pattern, intents] of Object.entries(INTENT_PERMISSIONS))
    it(`refuses every intent of ${pattern} to each role without its permission, changing nothing`, async () => {
      const seed = world.seed();
      const url = ROUTES[pattern]?.url?.(seed) ?? pattern;
      const before = await fingerprint();
      let refusals = 0;
      for (const [intent, permission] of Object.entries(intents)) {
        if (permission === null) continue;
        for (const [who, role] of Object.entries(LACKING) as [Signer, StaffRole | null][]) {
          if (can(role, permission)) continue;
          // As the page's form posts it without scripts, and as React Router's fetch does.
          for (const target of [url, dataUrl(url)]) {
            const form = forgedForm(seed, intent);
            const what = `POST ${target} ${JSON.stringify(form)} as ${who}`;
            const response = await fetchApp(target, { cookie: cookies[who], form });
            const body = await expectClean(response, who, what);
            expect(response.status, what).toBe(403);
            if (target.endsWith(".data"))
              expect(body, `${what}: the refusal`).toContain(`"permission","${permission}"`);
            else if (RESOURCE_ROUTES.has(pattern))
              // A route without a page answers its refusal as data: the permission, by its key.
              expect(JSON.parse(body), `${what}: the refusal`).toMatchObject({
                refused: "permission",
                permission,
              });
            else if (target.startsWith("/admin"))
              expect(body, `${what}: the refusal`).toMatch(
                new RegExp(`<code[^>]*>${permission.replace(".", "\\.")}</code>`),
              );
            refusals++;
          }
        }
      }
      expectUnchanged(
        before,
        await fingerprint(),
        `staff without the permission POST to ${pattern}`,
      );
      // A form that asks a permission is refused to somebody: the member without a role at least.
      const asks = Object.values(intents).some((permission) => permission !== null);
      expect(refusals > 0, `${pattern}: refused to someone`).toBe(asks);
    }, 180_000);

  it("lets a member whose role is missing see the dashboard and their own pages only", async () => {
    const admin = Object.entries(ROUTES).filter(([pattern]) => pattern.startsWith("/admin"));
    // The rows that ask no permission: every member's.
    expect(admin.filter(([, row]) => row.permission === null).map(([pattern]) => pattern)).toEqual([
      "/admin",
      "/admin/account",
      "/admin/notifications",
    ]);
    const seed = world.seed();
    for (const [pattern, row] of admin) {
      const url = row.url?.(seed) ?? pattern;
      const what = `GET ${url} as a member without a role`;
      const response = await fetchApp(url, { cookie: cookies.noRole });
      const body = await expectClean(response, "noRole", what);
      if (row.permission === null) expectAnswer(response, 200, url, what);
      else expectRefusal(response, body, row.permission!, "noRole", what);
    }
    // The menu has the dashboard and the notifications, nothing else.
    const dashboard = await (await fetchApp("/admin", { cookie: cookies.noRole })).text();
    const nav = /<nav aria-label="Admin Panel"[\s\S]*?<\/nav>/.exec(dashboard)?.[0] ?? "";
    expect([...nav.matchAll(/href="(\/admin[^"]*)"/g)].map((m) => m[1]).sort()).toEqual([
      "/admin",
      "/admin/notifications",
    ]);
    // The refusal says the member has no role.
    const refused = await (await fetchApp("/admin/orders", { cookie: cookies.noRole })).text();
    expect(refused).toContain("Your role (no role) does not include “Read orders”.");
  });

  describe("a top-up's proof file", () => {
    let proof = "";
    beforeAll(async () => {
      const seed = world.seed();
      const method = (await listPaymentMethodsForAdmin(app().db)).find(
        (m) => m.code === "cashplus",
      )!;
      await app()
        .db.updateTable("payment_methods")
        .set({
          enabled: 1,
          instructions: JSON.stringify({ en: "Pay at cashPlus", fr: "", ar: "" }),
        })
        .where("id", "=", method.id)
        .execute();
      const asked = await requestTopUp(app().db, {
        userId: seed.a.id,
        methodId: method.id,
        coins: 10,
      });
      if (!asked.ok) throw new Error(asked.error);
      // A's "I have paid" with a receipt, dated the day the server recorded the request.
      const sent = await fetchApp(dataUrl("/dashboard/top-up"), {
        cookie: cookies.customerA,
        body: uploadForm(
          {
            intent: "paid",
            requestId: String(asked.request.id),
            payerAccount: "0612",
            paidOn: asked.request.createdAt.slice(0, 10),
          },
          [pdfProof("alice-receipt.pdf", "alice private proof")],
        ),
      });
      expect(sent.status).toBe(200);
      const stored = await app()
        .db.selectFrom("top_up_proofs")
        .select("id")
        .where("top_up_request_id", "=", asked.request.id)
        .executeTakeFirstOrThrow();
      proof = `/dashboard/top-up/proofs/${stored.id}`;
    });

    it("is served to its owner and to the roles that decide top-ups, refused to the other roles", async () => {
      const answers: Record<Signer, number> = {
        anonymous: 302,
        customerA: 200,
        customerB: 404,
        owner: 200,
        billing: 200,
        support: 403,
        technician: 403,
        noRole: 403,
      };
      for (const [who, status] of Object.entries(answers) as [Signer, number][]) {
        const what = `GET ${proof} as ${who}`;
        const response = await fetchApp(proof, { cookie: cookies[who] });
        expect(response.status, what).toBe(status);
        const body = await expectClean(response, who, what);
        if (status === 403) {
          expectRefusal(response, body, "topups.decide", who, what);
          expect(body, what).not.toContain("%PDF");
        }
        if (status === 200) expect(body.startsWith("%PDF"), what).toBe(true);
        // Its preview (none for a PDF): the same refusal first.
        const preview = await fetchApp(`${proof}/thumbnail`, { cookie: cookies[who] });
        expect(preview.status, `${what}/thumbnail`).toBe(status === 200 ? 404 : status);
      }
    });
  });
});
