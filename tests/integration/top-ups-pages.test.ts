import { expect, it } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import { listPaymentMethodsForAdmin } from "~/domain/payments/payment-methods.server";
import * as queue from "~/routes/admin/top-ups";
import * as topUp from "~/routes/top-up";
import { registeredCustomer } from "../support/account-fixtures";
import { pngProof, uploadForm } from "../support/proof-files";
import { balanceOf } from "../support/money-fixtures";
import {
  contextFor,
  cookieHeader,
  postAction,
  postUpload,
  routeArgs,
  settle,
  type ActionAnswer,
} from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

// /dashboard/top-up and /admin/top-ups through their route modules: what each post answers, field by
// field, and what the pages load (docs/payments.md).
describeEachDatabase("top-up pages", (app) => {
  let signIns = 0;
  async function cookieOf(email: string, password: string) {
    const result = await signIn(app(), { email, password }, { ip: `10.62.0.${++signIns}` });
    if (!result.ok) throw new Error("sign in failed");
    return cookieHeader(result.setCookies);
  }
  async function customer() {
    const email = `topups${Date.now()}${signIns}@example.com`;
    const userId = await registeredCustomer(app(), {
      name: "Topper",
      email,
      password: "Top-pw-73915",
    });
    return { userId, cookie: await cookieOf(email, "Top-pw-73915") };
  }
  async function load(route: typeof topUp | typeof queue, path: string, cookie: string) {
    return settle(async () =>
      route.loader(
        routeArgs({
          request: new Request(`http://localhost${path}`, { headers: { cookie } }),
          context: await contextFor(app(), { cookie }),
        }),
      ),
    );
  }
  async function cashPlus() {
    const method = (await listPaymentMethodsForAdmin(app().db)).find((m) => m.code === "cashplus")!;
    await app()
      .db.updateTable("payment_methods")
      .set({
        enabled: 1,
        min_coins: 5,
        instructions: JSON.stringify({ en: "Pay at a cashPlus agency", fr: "", ar: "" }),
      })
      .where("id", "=", method.id)
      .execute();
    return String(method.id);
  }
  const today = () => new Date().toISOString().slice(0, 10);

  it("asks, marks paid and gets approved through the pages, each refusal with its field", async () => {
    const methodId = await cashPlus();
    const buyer = await customer();
    const post = (fields: Record<string, string>) =>
      postAction(app(), topUp, "/dashboard/top-up", fields, { cookie: buyer.cookie });

    const page = (await load(topUp, "/dashboard/top-up", buyer.cookie)) as {
      meta: { title: string };
      current: unknown;
      methods: { id: number; instructions: string }[];
    };
    expect(page.meta.title).toBe("Add coins");
    expect(page.current).toBeNull();
    expect(page.methods.find((m) => String(m.id) === methodId)?.instructions).toBe(
      "Pay at a cashPlus agency",
    );

    // The form's own refusals, on their fields; a domain refusal on its field with its values.
    const notWhole = (await post({ intent: "request", methodId, coins: "2.5" })) as ActionAnswer;
    expect(notWhole.init?.status).toBe(400);
    expect(notWhole.data).toMatchObject({
      ok: false,
      intent: "request",
      fieldErrors: { coins: "payments.errors.coinsNotWhole" },
    });
    const tooFew = (await post({ intent: "request", methodId, coins: "3" })) as ActionAnswer;
    expect(tooFew.init?.status).toBe(400);
    expect(tooFew.data).toMatchObject({
      fieldErrors: { coins: "payments.errors.coinsBelowMin" },
      params: { min: 5, max: 1000 },
    });
    const unknown = (await post({ intent: "matrix-probe" })) as ActionAnswer;
    expect(unknown.data).toMatchObject({ message: "payments.errors.unknownAction" });
    expect(unknown.data.fieldErrors).toBeUndefined();

    const asked = await post({ intent: "request", methodId, coins: "12" });
    expect(asked).toMatchObject({ ok: true, message: "payments.topUps.requested" });
    const again = (await post({ intent: "request", methodId, coins: "12" })) as ActionAnswer;
    expect(again.init?.status).toBe(409);
    expect(again.data).toMatchObject({ message: "payments.errors.openTopUpExists" });
    expect(again.data.fieldErrors).toBeUndefined();

    const current = (
      (await load(topUp, "/dashboard/top-up", buyer.cookie)) as {
        current: { id: number; reference: string; total: number; currency: string };
        instructions: string;
      }
    ).current;
    expect(current).toMatchObject({ total: 13_200, currency: "MAD" });
    const requestId = String(current.id);
    const noAccount = (await post({
      intent: "paid",
      requestId,
      payerAccount: "",
      paidOn: today(),
    })) as ActionAnswer;
    expect(noAccount.data).toMatchObject({
      fieldErrors: { payerAccount: "payments.errors.payerAccountRequired" },
    });
    const future = (await post({
      intent: "paid",
      requestId,
      payerAccount: "0612",
      paidOn: "2999-01-01",
    })) as ActionAnswer;
    expect(future.data).toMatchObject({ fieldErrors: { paidOn: "payments.errors.paidOnFuture" } });
    // Said without a file, the proof is what is missing; sent with one (an upload), it is paid.
    const noProof = (await post({
      intent: "paid",
      requestId,
      payerAccount: "0612",
      paidOn: today(),
    })) as ActionAnswer;
    expect(noProof.init?.status).toBe(400);
    expect(noProof.data).toMatchObject({
      fieldErrors: { proofs: "payments.errors.proofRequired" },
    });
    expect(
      await postUpload(
        app(),
        topUp,
        "/dashboard/top-up",
        uploadForm({ intent: "paid", requestId, payerAccount: "0612", paidOn: today() }, [
          await pngProof(),
        ]),
        { cookie: buyer.cookie },
      ),
    ).toMatchObject({ ok: true, message: "payments.topUps.markedPaid" });

    // The admin's queue has it first among the paid ones; another number of coins is credited.
    const adminCookie = await cookieOf(TEST_ADMIN.email, TEST_ADMIN.password);
    const listed = (await load(queue, "/admin/top-ups?state=proof_sent", adminCookie)) as {
      meta: { title: string };
      items: { id: number; customerName: string }[];
      methods: { id: number; name: string }[];
    };
    expect(listed.meta.title).toBe("Top-ups");
    expect(listed.items.find((item) => item.id === current.id)?.customerName).toBe("Topper");
    expect(listed.methods.map((m) => m.name)).toContain("cashPlus");
    const approve = (fields: Record<string, string>) =>
      postAction(app(), queue, "/admin/top-ups", fields, { cookie: adminCookie });
    const noReason = (await approve({ intent: "reject", requestId, reason: " " })) as ActionAnswer;
    expect(noReason.data).toMatchObject({ message: "payments.errors.reasonRequired" });
    expect(await approve({ intent: "approve", requestId, coins: "11" })).toMatchObject({
      ok: true,
      message: "payments.topUps.admin.approved",
      params: { reference: current.reference },
    });
    const twice = (await approve({ intent: "approve", requestId })) as ActionAnswer;
    expect(twice.init?.status).toBe(409);
    expect(twice.data).toMatchObject({ message: "payments.errors.topUpNotOpen" });
    expect(await balanceOf(app(), buyer.userId)).toBe(1_100);
  });
});
