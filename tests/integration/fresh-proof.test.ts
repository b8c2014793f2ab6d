import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { listPaymentMethodsForAdmin } from "~/domain/payments/payment-methods.server";
import { readProviderConfig } from "~/domain/payments/providers/provider-config.server";
import { readPanelConnection } from "~/domain/provisioning/panel-connection.server";
import * as clients from "~/routes/admin/clients";
import * as gamePanel from "~/routes/admin/game-panel";
import * as gateways from "~/routes/admin/gateways";
import * as ticket from "~/routes/admin/ticket";
import * as staffPage from "~/routes/admin/staff";
import { loginAttempts } from "../support/account-fixtures";
import {
  codeAt,
  minutesAfter,
  settableClock,
  signedInStaff,
  STAFF_PASSWORD,
  withTwoFactor,
} from "../support/fresh-proof-fixtures";
import { balanceOf, customerWithCoins } from "../support/money-fixtures";
import { readRow } from "../support/read-column";
import {
  contextFor,
  postAction,
  routeArgs,
  settle,
  type ActionAnswer,
} from "../support/request-context";
import { schemaSnapshot } from "../support/schema-snapshot";
import { describeEachDatabase } from "../support/test-database";
import { customerWithTicket } from "../support/ticket-fixtures";

// The most sensitive staff changes through their route modules, as requests reach them: once the
// session's last proof of identity is 15 minutes old they ask for the password or a two-factor code,
// change nothing until it is right, and a right one counts for the next 15 minutes (docs/staff.md).
const clock = settableClock();

let addresses = 0;
/** An address no other test signed in from. */
const address = () => `10.59.${Math.floor(addresses / 200)}.${addresses++ % 200}`;

/** What a refusal for want of a proof carries beside the form's own fields. */
const asked = (field: string) => ({
  proof: "required",
  fieldErrors: { proof: `admin-staff.freshProof.${field}` },
});

describeEachDatabase(
  "a fresh proof before the most sensitive changes",
  (app) => {
    type Member = Awaited<ReturnType<typeof signedInStaff>>;
    const staff = () => signedInStaff(app(), "owner", address());
    const post = (
      route: { action: (args: never) => unknown },
      path: string,
      member: Member,
      fields: Record<string, string>,
      params?: Record<string, string>,
    ) => postAction(app(), route, path, fields, { cookie: member.cookie, ip: member.ip, params });
    async function load(
      route: { loader: (args: never) => unknown },
      path: string,
      member: Member,
      params?: Record<string, string>,
    ) {
      return settle(async () =>
        route.loader(
          routeArgs({
            request: new Request(`http://localhost${path}`, { headers: { cookie: member.cookie } }),
            context: await contextFor(app(), { cookie: member.cookie, ip: member.ip }),
            params,
          }),
        ),
      ) as Promise<{ proofFresh: boolean }>;
    }
    const provenAtOf = async (member: Member) =>
      (await readRow(app().db, "sessions", ["proven_at"], { id: member.sessionId })).proven_at;

    const orange = async () =>
      (await listPaymentMethodsForAdmin(app().db)).find((m) => m.code === "orange-money")!;
    /** The editor's form for Orange Money with new instructions. */
    const orangeForm = async (instructions: string, extra: Record<string, string> = {}) => ({
      intent: "update",
      id: String((await orange()).id),
      nameEn: "Orange Money",
      nameFr: "Orange Money",
      nameAr: "Orange Money",
      instructionsEn: instructions,
      instructionsFr: "",
      instructionsAr: "",
      currency: "MAD",
      rate: "10.90",
      minCoins: "5",
      maxCoins: "300",
      feeFixed: "",
      feePercent: "",
      sortOrder: "1",
      enabled: "on",
      ...extra,
    });

    it("asks for the password before payment instructions change, then not for 15 minutes", async () => {
      const member = await staff();
      const before = (await orange()).instructions.en;
      // Exactly 15 minutes after the sign-in: no longer fresh.
      clock.set(minutesAfter(member.provenAt, 15));
      expect(await load(gateways, "/admin/gateways", member)).toMatchObject({ proofFresh: false });

      const redirectTo = "Send to 0699 999 999 (someone else)";
      const none = (await post(
        gateways,
        "/admin/gateways",
        member,
        await orangeForm(redirectTo),
      )) as ActionAnswer;
      expect(none.init?.status).toBe(403);
      expect(none.data).toMatchObject({
        ok: false,
        intent: "save",
        message: "payments.admin.saveFailed",
        ...asked("required"),
        values: expect.objectContaining({ instructionsEn: redirectTo }),
      });
      expect((await orange()).instructions.en).toBe(before);

      const wrong = (await post(
        gateways,
        "/admin/gateways",
        member,
        await orangeForm(redirectTo, { proof: "Not-my-password-1" }),
      )) as ActionAnswer;
      expect(wrong.init?.status).toBe(403);
      expect(wrong.data).toMatchObject({
        ...asked("wrong"),
        values: { instructionsEn: redirectTo },
      });
      // What was typed comes back, never the proof.
      expect(wrong.data.values).not.toHaveProperty("proof");
      expect(JSON.stringify(wrong.data)).not.toContain("Not-my-password-1");
      expect((await orange()).instructions.en).toBe(before);
      expect(await provenAtOf(member)).toBeNull();
      // The wrong proof is a failed sign-in attempt of the account from the member's address.
      expect((await loginAttempts(app(), member.email, member.ip)).at(-1)).toEqual({
        succeeded: 0,
      });

      const provenAt = clock.set(minutesAfter(member.provenAt, 16));
      const saved = (await post(
        gateways,
        "/admin/gateways",
        member,
        await orangeForm("Send to 0600 000 000 (Hostfront SARL)", { proof: STAFF_PASSWORD }),
      )) as Response;
      expect(saved.status).toBe(302);
      expect(saved.headers.get("location")).toMatch(/^\/admin\/gateways\?notice=updated#method-/);
      expect((await orange()).instructions.en).toBe("Send to 0600 000 000 (Hostfront SARL)");
      expect(await provenAtOf(member)).toBe(provenAt.toISOString());

      // 14 minutes on, the next change asks nothing.
      clock.set(minutesAfter(provenAt.toISOString(), 14));
      expect(await load(gateways, "/admin/gateways", member)).toMatchObject({ proofFresh: true });
      const again = (await post(
        gateways,
        "/admin/gateways",
        member,
        await orangeForm("Send to 0600 000 001 (Hostfront SARL)"),
      )) as Response;
      expect(again.status).toBe(302);
      expect((await orange()).instructions.en).toBe("Send to 0600 000 001 (Hostfront SARL)");
      // Switching a method off redirects no payment: it never asks.
      clock.set(minutesAfter(provenAt.toISOString(), 40));
      expect(
        await post(gateways, "/admin/gateways", member, {
          intent: "disable",
          id: String((await orange()).id),
        }),
      ).toMatchObject({ ok: true, intent: "row" });
      await post(gateways, "/admin/gateways", member, {
        intent: "enable",
        id: String((await orange()).id),
      });
    });

    it("asks before a provider's keys are saved, and takes a two-factor code", async () => {
      const member = await staff();
      const secret = `provider-proof-${randomUUID()}`;
      await withTwoFactor(app(), member.userId, { secret, backupCodes: ["QRSTU-23456"] });
      await app().db.deleteFrom("payment_providers").execute();
      const paypal = {
        intent: "provider-paypal",
        mode: "sandbox",
        apiUrl: "",
        publicId: "ProofClientId",
        secret: "proof-paypal-secret-9911",
        webhookId: "WH-PROOF-1",
      };
      const stored = () =>
        readProviderConfig(app().db, "paypal", { secret: app().env.AUTH_SECRET });
      const now = clock.set(minutesAfter(member.provenAt, 20));
      const none = (await post(gateways, "/admin/gateways", member, paypal)) as ActionAnswer;
      expect(none.init?.status).toBe(403);
      expect(none.data).toMatchObject({
        ok: false,
        intent: "provider",
        provider: "paypal",
        message: "admin-staff.freshProof.notDone",
        ...asked("required"),
        values: { publicId: "ProofClientId", secret: "" },
      });
      expect(JSON.stringify(none.data)).not.toContain("proof-paypal-secret");
      expect(await stored()).toEqual({ ok: false, problem: "notConfigured" });

      const saved = (await post(gateways, "/admin/gateways", member, {
        ...paypal,
        proof: codeAt(secret, now),
      })) as Response;
      expect(saved.status).toBe(302);
      expect(saved.headers.get("location")).toBe("/admin/gateways#provider-paypal");
      expect(await stored()).toMatchObject({
        ok: true,
        config: { publicId: "ProofClientId", secret: "proof-paypal-secret-9911" },
      });
      expect(await provenAtOf(member)).toBe(now.toISOString());
    });

    it("asks before the game panel's keys are saved, not for its address and locations alone", async () => {
      const member = await staff();
      const form = {
        intent: "save",
        url: "https://panel.proof.example",
        apiKey: "ptla_proofKey00000001",
        clientKey: "",
      };
      const proven = clock.set(minutesAfter(member.provenAt, 30));
      expect(await load(gamePanel, "/admin/settings/game-panel", member)).toMatchObject({
        proofFresh: false,
      });
      const before = await schemaSnapshot(app().db, { skip: ["sessions", "login_attempts"] });
      const none = (await post(
        gamePanel,
        "/admin/settings/game-panel",
        member,
        form,
      )) as ActionAnswer;
      expect(none.init?.status).toBe(403);
      expect(none.data).toMatchObject({
        ok: false,
        intent: "save",
        ...asked("required"),
        values: { url: "https://panel.proof.example", apiKey: "", clientKey: "" },
      });
      const wrong = (await post(gamePanel, "/admin/settings/game-panel", member, {
        ...form,
        clientKey: "ptlc_proofClient0001",
        proof: "guess-1234",
      })) as ActionAnswer;
      expect(wrong.init?.status).toBe(403);
      expect(wrong.data).toMatchObject(asked("wrong"));
      expect(JSON.stringify(wrong.data)).not.toMatch(/ptla_|ptlc_|guess-1234/);
      // Nothing at all changed but the sign-in attempts.
      expect(await schemaSnapshot(app().db, { skip: ["sessions", "login_attempts"] })).toEqual(
        before,
      );
      expect(await readPanelConnection(app().db)).toBeNull();

      expect(
        await post(gamePanel, "/admin/settings/game-panel", member, {
          ...form,
          proof: STAFF_PASSWORD,
        }),
      ).toMatchObject({ ok: true, intent: "save", message: "provisioning.panel.saved" });
      expect(await readPanelConnection(app().db)).toMatchObject({ keyLast4: "0001" });
      expect(await provenAtOf(member)).toBe(proven.toISOString());

      // Stale again: the same address without a key is saved without asking.
      clock.set(minutesAfter(proven.toISOString(), 15));
      expect(
        await post(gamePanel, "/admin/settings/game-panel", member, { ...form, apiKey: "" }),
      ).toMatchObject({ ok: true, intent: "save" });
      // A new application key asks again.
      const key = (await post(gamePanel, "/admin/settings/game-panel", member, {
        ...form,
        apiKey: "ptla_proofKey00000002",
      })) as ActionAnswer;
      expect(key.init?.status).toBe(403);
      expect(await readPanelConnection(app().db)).toMatchObject({ keyLast4: "0001" });
    });

    it("asks before a coin change above the threshold, never at it or under it", async () => {
      const member = await staff();
      const customer = await customerWithCoins(app(), 0);
      const coins = (amount: string, extra: Record<string, string> = {}) =>
        post(clients, "/admin/clients", member, {
          intent: "coins",
          userId: customer,
          amount,
          reason: "proof test",
          idempotencyKey: randomUUID(),
          ...extra,
        });
      clock.set(minutesAfter(member.provenAt, 60));
      expect(await load(clients, "/admin/clients", member)).toMatchObject({
        proofFresh: false,
        coinProofThreshold: 100,
      });
      // The threshold (100 coins) either way asks nothing.
      expect(await coins("100")).toMatchObject({ ok: true, message: "coins.admin.updated" });
      expect(await coins("-100")).toMatchObject({ ok: true });
      expect(await balanceOf(app(), customer)).toBe(0);

      for (const amount of ["100.01", "-250"]) {
        const over = (await coins(amount)) as ActionAnswer;
        expect(over.init?.status).toBe(403);
        expect(over.data).toMatchObject({
          ok: false,
          intent: "coins",
          userId: customer,
          message: "admin-staff.freshProof.notDone",
          ...asked("required"),
          values: { amount, reason: "proof test" },
        });
      }
      const wrong = (await coins("500", { proof: "Wrong-pw-000" })) as ActionAnswer;
      expect(wrong.data).toMatchObject(asked("wrong"));
      expect(await balanceOf(app(), customer)).toBe(0);

      // The same module serves /admin/users.
      const proven = clock.set(minutesAfter(member.provenAt, 61));
      expect(
        await post(clients, "/admin/users", member, {
          intent: "coins",
          userId: customer,
          amount: "500",
          reason: "proof test",
          idempotencyKey: randomUUID(),
          proof: STAFF_PASSWORD,
        }),
      ).toMatchObject({ ok: true, message: "coins.admin.updated" });
      expect(await balanceOf(app(), customer)).toBe(50_000);
      expect(await provenAtOf(member)).toBe(proven.toISOString());
      clock.set(minutesAfter(proven.toISOString(), 10));
      expect(await coins("-300")).toMatchObject({ ok: true });
      expect(await balanceOf(app(), customer)).toBe(20_000);
    });

    it("asks before goodwill coins above the threshold on a ticket, and takes a backup code once", async () => {
      const member = await staff();
      await withTwoFactor(app(), member.userId, {
        secret: `ticket-proof-${randomUUID()}`,
        backupCodes: ["VWXYZ-23456"],
      });
      const { owner, ticket: opened } = await customerWithTicket(app());
      const params = { id: String(opened.id) };
      const path = `/admin/tickets/${opened.id}`;
      const credit = (amount: string, extra: Record<string, string> = {}) =>
        post(
          ticket,
          path,
          member,
          {
            intent: "coins",
            amount,
            reason: "sorry for the wait",
            creditAs: "goodwill",
            idempotencyKey: randomUUID(),
            ...extra,
          },
          params,
        );
      clock.set(minutesAfter(member.provenAt, 25));
      expect(await load(ticket, path, member, params)).toMatchObject({
        proofFresh: false,
        coinProofThreshold: 100,
      });
      expect(await credit("20")).toMatchObject({ ok: true, intent: "coins" });
      const over = (await credit("150")) as ActionAnswer;
      expect(over.init?.status).toBe(403);
      expect(over.data).toMatchObject({
        ok: false,
        intent: "coins",
        ...asked("required"),
        values: { amount: "150", reason: "sorry for the wait", creditAs: "goodwill" },
      });
      expect(await balanceOf(app(), owner)).toBe(2_000);
      expect(await credit("150", { proof: "vwxyz 23456" })).toMatchObject({
        ok: true,
        intent: "coins",
        amountCents: 15_000,
      });
      expect(await balanceOf(app(), owner)).toBe(17_000);
      // The backup code is used up: 15 minutes on, it proves nothing.
      clock.set(minutesAfter(member.provenAt, 45));
      const reused = (await credit("150", { proof: "VWXYZ-23456" })) as ActionAnswer;
      expect(reused.data).toMatchObject(asked("wrong"));
      expect(await balanceOf(app(), owner)).toBe(17_000);
    });

    it("asks before a member of the staff is added, changed or removed", async () => {
      const member = await staff();
      const customer = await customerWithCoins(app(), 0);
      const email = (await readRow(app().db, "users", ["email"], { id: customer })).email;
      const roleOf = async () =>
        (await readRow(app().db, "users", ["role", "staff_role"], { id: customer })) as {
          role: string;
          staff_role: string | null;
        };
      clock.set(minutesAfter(member.provenAt, 15));
      expect(await load(staffPage, "/admin/staff", member)).toMatchObject({ proofFresh: false });
      const add = { intent: "add", email, role: "support" };
      const none = (await post(staffPage, "/admin/staff", member, add)) as ActionAnswer;
      expect(none.init?.status).toBe(403);
      expect(none.data).toMatchObject({
        ok: false,
        intent: "add",
        ...asked("required"),
        values: { email, role: "support" },
      });
      expect(await roleOf()).toEqual({ role: "user", staff_role: null });
      const wrong = (await post(staffPage, "/admin/staff", member, {
        ...add,
        proof: "Not-my-password-1",
      })) as ActionAnswer;
      expect(wrong.data).toMatchObject(asked("wrong"));
      expect(await roleOf()).toEqual({ role: "user", staff_role: null });
      const added = await post(staffPage, "/admin/staff", member, {
        ...add,
        proof: STAFF_PASSWORD,
      });
      expect(added).toMatchObject({ ok: true, intent: "add" });
      expect(await roleOf()).toEqual({ role: "admin", staff_role: "support" });
      // Fresh again for 15 minutes, then each change asks once more.
      clock.set(minutesAfter((await provenAtOf(member))!, 15));
      const forms: Record<string, string>[] = [
        { intent: "role", userId: customer, role: "billing" },
        { intent: "remove", userId: customer },
      ];
      for (const form of forms) {
        const refused = (await post(staffPage, "/admin/staff", member, form)) as ActionAnswer;
        expect(refused.init?.status).toBe(403);
        expect(refused.data).toMatchObject({ intent: form.intent, ...asked("required") });
        expect(await roleOf()).toEqual({ role: "admin", staff_role: "support" });
      }
    });

    it("counts a fresh sign-in as a proof", async () => {
      const member = await staff();
      const customer = await customerWithCoins(app(), 0);
      clock.set(minutesAfter(member.provenAt, 14));
      expect(await load(clients, "/admin/clients", member)).toMatchObject({ proofFresh: true });
      expect(
        await post(clients, "/admin/clients", member, {
          intent: "coins",
          userId: customer,
          amount: "900",
          reason: "fresh sign-in",
          idempotencyKey: randomUUID(),
        }),
      ).toMatchObject({ ok: true });
      expect(await balanceOf(app(), customer)).toBe(90_000);
      // No proof was typed: the session keeps its sign-in as its last proof.
      expect(await provenAtOf(member)).toBeNull();
    });

    it("refuses every proof for a while after five wrong ones, the right one too", async () => {
      const member = await staff();
      const customer = await customerWithCoins(app(), 0);
      const coins = (proof: string) =>
        post(clients, "/admin/clients", member, {
          intent: "coins",
          userId: customer,
          amount: "1000",
          reason: "guessing",
          idempotencyKey: randomUUID(),
          proof,
        }) as Promise<ActionAnswer>;
      clock.set(minutesAfter(member.provenAt, 20));
      for (let i = 0; i < 5; i++) expect((await coins(`guess-${i}`)).init?.status).toBe(403);
      const blocked = await coins(STAFF_PASSWORD);
      expect(blocked.init?.status).toBe(429);
      expect(blocked.data).toMatchObject({
        ...asked("limited"),
        fieldErrorValues: { proof: { count: 15 } },
      });
      expect(await balanceOf(app(), customer)).toBe(0);
      expect(await provenAtOf(member)).toBeNull();
    });
  },
  { clock },
);
