import { afterAll, beforeEach, expect, it } from "vitest";
import { changeServiceStatus } from "~/domain/hosting-services/admin-changes.server";
import { JOB_HANDLERS } from "~/domain/jobs/registry.server";
import { registeredCustomer, signedInCookie } from "../../../tests/support/account-fixtures";
import { startFakeDiscordApi, type FakeDiscordUser } from "../../../tests/support/fake-discord-api";
import { adjustCoins } from "~/domain/coins/coins.server";
import { adminId, approvedOrder, productId } from "../../../tests/support/money-fixtures";
import { cookieHeader } from "../../../tests/support/request-context";
import { steppedWorker } from "../../../tests/support/stepped-worker";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { DISCORD_RECONCILE_JOB, DISCORD_ROLE_JOB } from "./discord";
import {
  finishDiscord,
  linkedDiscordId,
  loadDiscordLink,
  startDiscordLink,
  startDiscordSignIn,
  unlinkDiscord,
} from "./discord-auth.server";
import { discordRoleHandlers, saveDiscordRoleSettings } from "./discord-roles.server";

const discord = await startFakeDiscordApi();
afterAll(() => discord.close());

const GUILD = "900000000000000001";
const ROLE = "900000000000000002";
const START = new Date("2031-05-02T09:00:00.000Z");
const PASSWORD = "Discord-owner-pw-7713";
const CLIENT = { ip: "203.0.113.9", userAgent: "vitest" };
let serial = 0;

/** A Discord user of the stand-in, member of the guild, with an address of its own. */
function discordUser(overrides: Partial<FakeDiscordUser> = {}): FakeDiscordUser {
  const n = `${Date.now()}${serial++}`.slice(-12);
  const user = {
    id: `7${n.padStart(17, "0")}`,
    username: `gamer${n}`,
    global_name: `Gamer ${n}`,
    email: `discord${n}@example.com`,
    verified: true,
    ...overrides,
  };
  discord.addUser(user);
  discord.addMember(GUILD, user.id);
  return user;
}

// Discord (docs/discord.md): signing in and linking through the stand-in of Discord's OAuth2, and the
// "client" role given and taken back by the worker as the customer's services change.
describeEachDatabase(
  "Discord sign-in and the client role",
  (app) => {
    let clock = START;
    const worker = () =>
      steppedWorker({
        db: app().db,
        handlers: {
          ...JOB_HANDLERS,
          ...discordRoleHandlers({ secret: app().env.AUTH_SECRET, baseUrl: discord.url }),
        },
        config: { leaseMs: 30_000, pollMs: 1_000, backoffMs: 1_000, concurrency: 1 },
        now: () => clock,
      });

    /** Rounds of the worker a second apart, running only Discord's jobs. */
    async function runJobs(rounds = 3) {
      const running = worker();
      for (let round = 0; round < rounds; round++) {
        await app().db.deleteFrom("jobs").where("type", "not like", "discord.%").execute();
        clock = new Date(clock.getTime() + 1_000);
        await running.tick();
        await running.idle();
      }
      await running.stop(1_000);
    }

    const jobsOf = (type: string) =>
      app()
        .db.selectFrom("jobs")
        .select(["state", "attempts", "last_error", "run_at"])
        .where("type", "=", type)
        .orderBy("id")
        .execute();

    /** Through Discord's authorize page as `user`: the callback's query and the state cookie. */
    async function throughDiscord(start: { url: string; setCookies: string[] }, userId: string) {
      const authorize = new URL(start.url);
      expect(authorize.origin).toBe(discord.url);
      authorize.searchParams.set("as", userId);
      const answer = await fetch(authorize, { redirect: "manual" });
      const back = new URL(answer.headers.get("location")!);
      expect(back.pathname).toBe("/auth/discord/callback");
      return {
        query: Object.fromEntries(back.searchParams),
        stateCookie: cookieHeader(start.setCookies),
      };
    }

    async function signInWithDiscord(userId: string, registrationOpen = true) {
      const start = await startDiscordSignIn(app(), { registrationOpen, client: CLIENT });
      const { query, stateCookie } = await throughDiscord(start, userId);
      return finishDiscord(app(), {
        query,
        client: { ...CLIENT, cookie: stateCookie },
        now: clock,
      });
    }

    async function linkDiscord(cookie: string, userId: string) {
      const start = await startDiscordLink(app(), { client: { ...CLIENT, cookie } });
      const { query, stateCookie } = await throughDiscord(start, userId);
      return finishDiscord(app(), {
        query,
        client: { ...CLIENT, cookie: `${cookie}; ${stateCookie}` },
        now: clock,
      });
    }

    async function customer() {
      const email = `owner${Date.now()}${serial++}@example.com`;
      const userId = await registeredCustomer(app(), { name: "Salma", email, password: PASSWORD });
      const cookie = await signedInCookie(app(), { email, password: PASSWORD }, CLIENT);
      return { userId, email, cookie };
    }

    const usersWithEmail = async (email: string) =>
      (await app().db.selectFrom("users").select("id").where("email", "=", email).execute()).length;

    beforeEach(async () => {
      await app().db.deleteFrom("jobs").execute();
      await saveDiscordRoleSettings(
        app().db,
        { guildId: GUILD, roleId: ROLE, botToken: discord.botToken, actorId: await adminId(app()) },
        { secret: app().env.AUTH_SECRET, now: clock },
      );
    });

    it("links from the account, then signs in to that same account with Discord", async () => {
      const owner = await customer();
      const gamer = discordUser({ email: `other-${Date.now()}@example.com` });
      const linked = await linkDiscord(owner.cookie, gamer.id);
      expect(linked).toEqual({ ok: true, kind: "linked", userId: owner.userId });
      expect(await linkedDiscordId(app().db, owner.userId)).toBe(gamer.id);
      const audit = await app()
        .db.selectFrom("audit_log")
        .select("action")
        .where("target_id", "=", owner.userId)
        .where("action", "=", "account.discord_link")
        .execute();
      expect(audit).toHaveLength(1);

      const signedIn = await signInWithDiscord(gamer.id);
      expect(signedIn).toMatchObject({ ok: true, kind: "signedIn", userId: owner.userId });
      expect(await usersWithEmail(gamer.email!)).toBe(0);
    });

    it("never makes a second account for a registered address: it says to sign in and link", async () => {
      const owner = await customer();
      const gamer = discordUser({ email: owner.email });
      const refused = await signInWithDiscord(gamer.id);
      expect(refused).toEqual({ ok: false, on: "login", refusal: "emailTaken" });
      expect(await usersWithEmail(owner.email)).toBe(1);
      expect(await linkedDiscordId(app().db, owner.userId)).toBeNull();
    });

    it("makes a customer of a new verified address, and not while registration is closed or unverified", async () => {
      const closed = discordUser();
      expect(await signInWithDiscord(closed.id, false)).toEqual({
        ok: false,
        on: "login",
        refusal: "registrationClosed",
      });
      const unverified = discordUser({ verified: false });
      expect(await signInWithDiscord(unverified.id)).toEqual({
        ok: false,
        on: "login",
        refusal: "emailUnverified",
      });
      expect(await usersWithEmail(unverified.email!)).toBe(0);
      const fresh = discordUser();
      const made = await signInWithDiscord(fresh.id);
      expect(made).toMatchObject({ ok: true, kind: "registered" });
      const user = await app()
        .db.selectFrom("users")
        .select(["id", "role", "email_verified"])
        .where("email", "=", fresh.email!)
        .executeTakeFirstOrThrow();
      expect(user.role).toBe("user");
      expect(Boolean(user.email_verified)).toBe(true);
    });

    it("refuses a replayed code and a state that is not the browser's", async () => {
      const gamer = discordUser();
      const start = await startDiscordSignIn(app(), { registrationOpen: true, client: CLIENT });
      const { query, stateCookie } = await throughDiscord(start, gamer.id);
      const first = await finishDiscord(app(), {
        query,
        client: { ...CLIENT, cookie: stateCookie },
        now: clock,
      });
      expect(first.ok).toBe(true);
      // The same code again (Discord: invalid_grant); the state is spent too.
      const again = await finishDiscord(app(), {
        query,
        client: { ...CLIENT, cookie: stateCookie },
        now: clock,
      });
      expect(again).toMatchObject({ ok: false, refusal: "failed" });
      // A state without its cookie (another browser's link).
      const other = await startDiscordSignIn(app(), { registrationOpen: true, client: CLIENT });
      const stolen = await throughDiscord(other, gamer.id);
      const foreign = await finishDiscord(app(), {
        query: stolen.query,
        client: CLIENT,
        now: clock,
      });
      expect(foreign).toMatchObject({ ok: false, refusal: "failed" });
    });

    it("unlinks only an account that has a password", async () => {
      const owner = await customer();
      const gamer = discordUser({ email: `x-${Date.now()}@example.com` });
      await linkDiscord(owner.cookie, gamer.id);
      expect(
        await loadDiscordLink(app().db, { userId: owner.userId, available: true }),
      ).toMatchObject({ linked: { discordId: gamer.id }, hasPassword: true });
      expect(await unlinkDiscord(app().db, { userId: owner.userId, now: clock })).toEqual({
        ok: true,
      });
      expect(await linkedDiscordId(app().db, owner.userId)).toBeNull();
      expect(await unlinkDiscord(app().db, { userId: owner.userId, now: clock })).toMatchObject({
        ok: false,
        kind: "notFound",
      });

      // An account made from Discord has no password: Discord is its only way in.
      const solo = discordUser();
      const made = await signInWithDiscord(solo.id);
      if (!made.ok || made.kind === "linked") throw new Error("not registered");
      expect(await unlinkDiscord(app().db, { userId: made.userId, now: clock })).toEqual({
        ok: false,
        kind: "conflict",
        error: "discord.account.errors.onlyWayIn",
      });
      expect(await linkedDiscordId(app().db, made.userId)).toBe(solo.id);
    });

    it("gives the role while a service is active and takes it back once suspended", async () => {
      // Linked first, then a service ordered and approved: the approval's reaction gives the role.
      const email = `svc${Date.now()}${serial++}@example.com`;
      const owner = await registeredCustomer(app(), { name: "Nour", email, password: PASSWORD });
      const cookie = await signedInCookie(app(), { email, password: PASSWORD }, CLIENT);
      const gamer = discordUser({ email: `r-${Date.now()}@example.com` });
      await linkDiscord(cookie, gamer.id);
      await runJobs();
      expect(discord.roles(GUILD, gamer.id)).toEqual([]);
      await adjustCoins(app().db, {
        userId: owner,
        amountCents: 5000,
        reason: "test credit",
        actorId: await adminId(app()),
      });
      const { approved } = await approvedOrder(app(), owner, {
        productId: await productId(app(), "samp-starter"),
      });
      const serviceId = approved.hostingServiceId!;
      await runJobs();
      expect(discord.roles(GUILD, gamer.id)).toEqual([ROLE]);

      // Suspended by an admin: the status change's reaction queues the sync, which takes it back.
      const suspended = await changeServiceStatus(app().db, {
        actorId: await adminId(app()),
        serviceId,
        action: "suspend",
      });
      expect(suspended.ok).toBe(true);
      expect((await jobsOf(DISCORD_ROLE_JOB)).some((job) => job.state === "queued")).toBe(true);
      await runJobs();
      expect(discord.roles(GUILD, gamer.id)).toEqual([]);
      const last = discord.roleCalls.at(-1)!;
      expect(last).toMatchObject({ method: "DELETE", reason: "Hostfront: no active service" });

      // Reactivated: given again.
      await changeServiceStatus(app().db, {
        actorId: await adminId(app()),
        serviceId,
        action: "reactivate",
      });
      await runJobs();
      expect(discord.roles(GUILD, gamer.id)).toEqual([ROLE]);
    });

    it("waits out a 429, ends on Unknown Member, and dies on a refused token", async () => {
      const owner = await customer();
      const gamer = discordUser({ email: `q-${Date.now()}@example.com` });
      await linkDiscord(owner.cookie, gamer.id);

      // 429: the job comes back after retry_after, without spending an attempt's backoff.
      discord.failNext({ status: 429, retryAfter: 30 });
      await runJobs(1);
      const waiting = (await jobsOf(DISCORD_ROLE_JOB)).at(-1)!;
      expect(waiting.state).toBe("failed");
      expect(new Date(waiting.run_at).getTime()).toBeGreaterThanOrEqual(clock.getTime() + 28_000);
      clock = new Date(clock.getTime() + 31_000);
      await runJobs(1);
      expect((await jobsOf(DISCORD_ROLE_JOB)).at(-1)!.state).toBe("succeeded");

      // Unknown Member (left the server): done, not retried.
      await app().db.deleteFrom("jobs").execute();
      discord.failNext({ status: 404, code: 10007 });
      await unlinkDiscord(app().db, { userId: owner.userId, now: clock });
      await runJobs(1);
      expect((await jobsOf(DISCORD_ROLE_JOB)).at(-1)!.state).toBe("succeeded");

      // A refused token (401) or a missing permission (403): dead at once, the admins alerted.
      for (const status of [401, 403] as const) {
        await app().db.deleteFrom("jobs").execute();
        await linkDiscord(owner.cookie, gamer.id);
        discord.failNext({ status });
        const running = steppedWorker({
          db: app().db,
          handlers: discordRoleHandlers({ secret: app().env.AUTH_SECRET, baseUrl: discord.url }),
          config: { leaseMs: 30_000, pollMs: 1_000, backoffMs: 1_000, concurrency: 1 },
          now: () => clock,
          onProblem: async (problem) => {
            problems.push(problem.kind);
          },
        });
        const problems: string[] = [];
        clock = new Date(clock.getTime() + 1_000);
        await running.tick();
        await running.idle();
        await running.stop(1_000);
        const dead = (await jobsOf(DISCORD_ROLE_JOB)).at(-1)!;
        expect(dead.state).toBe("dead");
        expect(dead.last_error).toContain(`(${status})`);
        expect(problems).toEqual(["dead"]);
        await unlinkDiscord(app().db, { userId: owner.userId, now: clock });
      }
    });

    it("queues a sync for every linked customer in the nightly run", async () => {
      const owner = await customer();
      const gamer = discordUser({ email: `n-${Date.now()}@example.com` });
      await linkDiscord(owner.cookie, gamer.id);
      await app().db.deleteFrom("jobs").execute();
      const handlers = discordRoleHandlers({ secret: app().env.AUTH_SECRET, baseUrl: discord.url });
      const counts = await handlers[DISCORD_RECONCILE_JOB]!({
        db: app().db,
        now: clock,
        payload: {},
        job: {} as never,
        complete: async () => true,
      });
      const linkedCount = (
        await app()
          .db.selectFrom("accounts")
          .select("id")
          .where("provider_id", "=", "discord")
          .execute()
      ).length;
      expect(counts).toEqual({ queued: linkedCount });
      const queued = await app()
        .db.selectFrom("jobs")
        .select("payload")
        .where("type", "=", DISCORD_ROLE_JOB)
        .execute();
      expect(queued.map((job) => JSON.parse(job.payload).userId)).toContain(owner.userId);
    });
  },
  {
    env: {
      DISCORD_CLIENT_ID: discord.clientId,
      DISCORD_CLIENT_SECRET: discord.clientSecret,
      DISCORD_BASE_URL: discord.url,
    },
  },
);
