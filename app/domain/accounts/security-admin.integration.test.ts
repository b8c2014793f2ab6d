import { expect, it } from "vitest";
import { readRow, readRows } from "../../../tests/support/read-column";
import { cookieHeader } from "../../../tests/support/request-context";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase, TEST_ADMIN } from "../../../tests/support/test-database";
import {
  LOGIN_EMAIL_FAILURE_CEILING,
  MAX_EMAIL_LENGTH,
  SESSION_ACTIVITY_STEP_MINUTES,
} from "./accounts";
import { getCurrentSession, provisionAdmin, signIn } from "./accounts.server";
import { pairKey, type ThrottleKind } from "./login-throttle";
import { liftLoginBlock, listThrottles } from "./login-blocks.server";
import { pruneLoginRecords, recordLoginAttempt } from "./login-throttle.server";
import {
  listRateLimitRefusals,
  pruneRateLimitRefusals,
  RATE_LIMIT_REFUSAL_MAX_ROWS,
  recordRateLimitRefusal,
} from "./rate-limit-refusals.server";
import {
  listOwnSessions,
  revokeOtherOwnSessions,
  revokeOwnSession,
  touchSession,
} from "./own-sessions.server";
import { listFailedLogins, loadSecurityPage } from "./security-admin.server";
import { trustDevice, trustedDevicesOf } from "../../../tests/support/trusted-devices";

const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0";
const CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now()}${counter++}`;

describeEachDatabase("the admin security page", (app) => {
  async function adminSession(email: string, password: string, ip: string, userAgent: string) {
    const result = await signIn(app(), { email, password }, { ip, userAgent });
    if (!result.ok) throw new Error(`sign in failed: ${result.error}`);
    const cookie = cookieHeader(result.setCookies);
    const session = await getCurrentSession(app(), cookie);
    if (!session) throw new Error("no session");
    return { cookie, sessionId: session.sessionId, userId: session.user.id };
  }

  /** The seed admin signed in here (Chrome) and there (Firefox), and a second admin, from `net`. */
  async function threeAdminSessions(net: string, second: { email: string; password: string }) {
    const here = await adminSession(TEST_ADMIN.email, TEST_ADMIN.password, `${net}.1`, CHROME);
    const there = await adminSession(TEST_ADMIN.email, TEST_ADMIN.password, `${net}.2`, FIREFOX);
    await provisionAdmin(app(), second);
    const other = await adminSession(second.email, second.password, `${net}.3`, CHROME);
    return { here, there, other };
  }

  /** Lifts a login block that must be in force (the app's address limit); returns what it lifted. */
  async function liftedBlocks(
    actorId: string,
    kind: Parameters<typeof liftLoginBlock>[1]["kind"],
    key: string,
  ) {
    const result = await liftLoginBlock(app().db, {
      actorId,
      kind,
      key,
      addressLimit: app().loginIpLimit,
    });
    if (!result.ok) throw new Error(result.error);
    return result.lifted;
  }

  async function auditRows(action: string, actorId: string, targetId?: string) {
    let query = app()
      .db.selectFrom("audit_log")
      .selectAll()
      .where("action", "=", action)
      .where("actor_id", "=", actorId);
    if (targetId) query = query.where("target_id", "=", targetId);
    return query.orderBy("id").execute();
  }

  it("lists only the admin's own live sessions, marks the current one, and tracks last activity", async () => {
    const { here, there, other } = await threeAdminSessions("10.60.0", {
      email: "other-sec@example.com",
      password: "Other-admin-pw-91",
    });

    const sessions = await listOwnSessions(app().db, {
      userId: here.userId,
      currentSessionId: here.sessionId,
    });
    const ids = sessions.map((s) => s.id);
    expect(ids).toContain(here.sessionId);
    expect(ids).toContain(there.sessionId);
    expect(ids).not.toContain(other.sessionId);
    expect(sessions[0]).toMatchObject({
      id: here.sessionId,
      current: true,
      ipAddress: "10.60.0.1",
    });
    const firefox = sessions.find((s) => s.id === there.sessionId)!;
    expect(firefox).toMatchObject({ current: false, ipAddress: "10.60.0.2", userAgent: FIREFOX });
    const hours = (Date.parse(firefox.expiresAt) - Date.parse(firefox.createdAt)) / 3_600_000;
    expect(hours).toBeCloseTo(12, 1);

    // An expired session is not listed.
    await app()
      .db.updateTable("sessions")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", there.sessionId)
      .execute();
    const live = await listOwnSessions(app().db, { userId: here.userId });
    expect(live.map((s) => s.id)).not.toContain(there.sessionId);

    // Last active moves on only when it is older than the step.
    const later = new Date(Date.now() + (SESSION_ACTIVITY_STEP_MINUTES + 1) * 60_000);
    await touchSession(app().db, { id: here.sessionId, updatedAt: new Date() }, new Date());
    let row = (await listOwnSessions(app().db, { userId: here.userId })).find(
      (s) => s.id === here.sessionId,
    )!;
    expect(row.lastActiveAt).toBe(row.createdAt);
    await touchSession(app().db, { id: here.sessionId, updatedAt: row.createdAt }, later);
    row = (await listOwnSessions(app().db, { userId: here.userId })).find(
      (s) => s.id === here.sessionId,
    )!;
    expect(row.lastActiveAt).toBe(later.toISOString());
  });

  it("signs out one other session (its cookie stops working), keeps the current one and refuses others' ids", async () => {
    const { here, there, other } = await threeAdminSessions("10.61.0", {
      email: "third-sec@example.com",
      password: "Third-admin-pw-92",
    });
    const actor = { actorId: here.userId, currentSessionId: here.sessionId };

    // Another admin's session: refused as not found, and it still works.
    expect(await revokeOwnSession(app().db, { ...actor, sessionId: other.sessionId })).toEqual(
      refusal("notFound", "admin-security.errors.sessionNotFound"),
    );
    expect(await getCurrentSession(app(), other.cookie)).not.toBeNull();
    // The current one is refused; Logout ends it.
    expect(await revokeOwnSession(app().db, { ...actor, sessionId: here.sessionId })).toEqual(
      refusal("conflict", "admin-security.errors.currentSession"),
    );
    expect(await revokeOwnSession(app().db, { ...actor, sessionId: "no-such-session" })).toEqual(
      refusal("notFound", "admin-security.errors.sessionNotFound"),
    );
    expect(await auditRows("session.revoke", here.userId)).toEqual([]);

    expect(await revokeOwnSession(app().db, { ...actor, sessionId: there.sessionId })).toEqual({
      ok: true,
      ended: 1,
    });
    expect(await getCurrentSession(app(), there.cookie)).toBeNull();
    expect(await getCurrentSession(app(), here.cookie)).not.toBeNull();
    const [entry] = await auditRows("session.revoke", here.userId);
    expect(entry).toMatchObject({ target_type: "user", target_id: here.userId });
    expect(JSON.parse(entry!.before!)).toMatchObject({
      session: there.sessionId,
      ipAddress: "10.61.0.2",
      userAgent: FIREFOX,
    });
  });

  it("signs out every other session of the admin and forgets their trusted devices, only theirs, keeping the current session", async () => {
    await provisionAdmin(app(), {
      email: "fourth-sec@example.com",
      password: "Fourth-admin-pw-93",
    });
    const login = (ip: string) =>
      adminSession("fourth-sec@example.com", "Fourth-admin-pw-93", ip, FIREFOX);
    const here = await login("10.62.0.1");
    const second = await login("10.62.0.2");
    const third = await login("10.62.0.3");
    const bystander = await adminSession(
      TEST_ADMIN.email,
      TEST_ADMIN.password,
      "10.62.0.4",
      CHROME,
    );

    expect(await revokeOtherOwnSessions(app().db, { actorId: here.userId })).toEqual(
      refusal("conflict", "admin-security.errors.currentSession"),
    );
    const actor = { actorId: here.userId, currentSessionId: here.sessionId };
    // A device trusted to skip the sign-in code goes too (this one's as well); a bystander's stays.
    await trustDevice(app().db, here.userId);
    await trustDevice(app().db, bystander.userId);
    expect(await revokeOtherOwnSessions(app().db, actor)).toEqual({ ok: true, ended: 2 });
    expect(await trustedDevicesOf(app().db, here.userId)).toBe(0);
    expect(await trustedDevicesOf(app().db, bystander.userId)).toBe(1);
    expect(await getCurrentSession(app(), second.cookie)).toBeNull();
    expect(await getCurrentSession(app(), third.cookie)).toBeNull();
    expect(await getCurrentSession(app(), here.cookie)).not.toBeNull();
    expect(await getCurrentSession(app(), bystander.cookie)).not.toBeNull();
    expect(await revokeOtherOwnSessions(app().db, actor)).toEqual(
      refusal("conflict", "admin-security.errors.noOtherSessions"),
    );
    const rows = await auditRows("session.revoke_others", here.userId);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.before!)).toEqual({ sessions: 2, trustedDevices: 1 });
  });

  it("lists failed logins newest first, paged and filtered, with the last 24 hours counted", async () => {
    const db = app().db;
    const tag = unique("fl");
    const base = Date.now() - 60 * 60_000;
    for (let i = 0; i < 7; i++) {
      await recordLoginAttempt(
        db,
        {
          email: `${tag}-${i}@example.com`,
          ip: i < 4 ? "192.0.2.10" : "192.0.2.20",
          succeeded: false,
        },
        new Date(base + i * 1000),
      );
    }
    await recordLoginAttempt(db, {
      email: `${tag}-ok@example.com`,
      ip: "192.0.2.10",
      succeeded: true,
    });
    // Two days old: listed, but not in the 24-hour count.
    await recordLoginAttempt(
      db,
      { email: `${tag}-old@example.com`, ip: "192.0.2.30", succeeded: false },
      new Date(Date.now() - 2 * 86_400_000),
    );

    const first = await listFailedLogins(db, { email: tag, page: 1, pageSize: 3 });
    expect(first.entries.map((e) => e.email)).toEqual([
      `${tag}-6@example.com`,
      `${tag}-5@example.com`,
      `${tag}-4@example.com`,
    ]);
    expect(first.hasMore).toBe(true);
    const third = await listFailedLogins(db, { email: tag, page: 3, pageSize: 3 });
    expect(third.entries.map((e) => e.email)).toEqual([
      `${tag}-0@example.com`,
      `${tag}-old@example.com`,
    ]);
    expect(third.hasMore).toBe(false);

    const byAddress = await listFailedLogins(db, { address: "192.0.2.2", page: 1, pageSize: 50 });
    expect(byAddress.entries.every((e) => e.address === "192.0.2.20")).toBe(true);
    expect(byAddress.entries).toHaveLength(3);
    const both = await listFailedLogins(db, {
      email: `${tag}-1`,
      address: "192.0.2.10",
      page: 1,
      pageSize: 50,
    });
    expect(both.entries).toEqual([
      {
        id: expect.any(Number),
        email: `${tag}-1@example.com`,
        address: "192.0.2.10",
        at: new Date(base + 1000).toISOString(),
      },
    ]);
    // LIKE's wildcards are plain characters in a filter.
    expect((await listFailedLogins(db, { email: "%", page: 1, pageSize: 5 })).entries).toEqual([]);

    const before = first.last24h;
    await recordLoginAttempt(db, {
      email: `${tag}-x@example.com`,
      ip: "192.0.2.40",
      succeeded: false,
    });
    expect((await listFailedLogins(db, { page: 1, pageSize: 1 })).last24h).toBe(before + 1);
    const total = await db
      .selectFrom("login_attempts")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("succeeded", "=", 0)
      .where("created_at", ">", new Date(Date.now() - 86_400_000).toISOString())
      .executeTakeFirstOrThrow();
    expect(before + 1).toBe(Number(total.n));
  });

  it("stores at most an email's length of whatever was typed", async () => {
    const typed = `<script>${"x".repeat(2000)}@example.com`;
    await recordLoginAttempt(app().db, { email: typed, ip: "192.0.2.99", succeeded: false });
    const row = await readRow(app().db, "login_attempts", ["email"], { ip_address: "192.0.2.99" });
    expect(row.email).toBe(typed.slice(0, MAX_EMAIL_LENGTH));
  });

  it("shows an address over the limit as blocked until its end, then as ended, then not at all", async () => {
    const db = app().db;
    const ip = "198.51.100.7";
    const limit = app().loginIpLimit;
    for (let i = 0; i < limit; i++) {
      const result = await signIn(
        app(),
        { email: `${unique("nobody")}@example.com`, password: "whatever-1" },
        { ip },
      );
      expect(result).toEqual(refusal("unauthenticated", "errors.invalidCredentials"));
    }
    const refused = await signIn(
      app(),
      { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
      { ip },
    );
    expect(refused).toEqual({ ...refusal("limited", "errors.tooManyAttempts"), minutes: 1 });

    const now = new Date();
    const listed = (await listThrottles(db, { addressLimit: limit, now })).find(
      (entry) => entry.kind === "address" && entry.key === ip,
    );
    expect(listed).toBeDefined();
    expect(listed!.active).toBe(true);
    expect(listed!.attempts).toBe(limit);
    expect(listed!.block.liftedAt).toBeNull();
    const oldest = await readRow(
      db,
      "login_attempts",
      ["created_at"],
      { ip_address: ip },
      "created_at",
    );
    const endsAt = new Date(Date.parse(oldest.created_at) + 60_000);
    expect(listed!.block.endsAt).toBe(endsAt.toISOString());
    expect(Date.parse(listed!.block.endsAt)).toBeGreaterThan(now.getTime());

    const after = new Date(endsAt.getTime() + 1000);
    const ended = (await listThrottles(db, { addressLimit: limit, now: after })).find(
      (entry) => entry.key === ip,
    );
    expect(ended).toMatchObject({ active: false, block: { endsAt: endsAt.toISOString() } });
    const dayLater = new Date(endsAt.getTime() + 24 * 3_600_000 + 1000);
    expect(
      (await listThrottles(db, { addressLimit: limit, now: dayLater })).find((e) => e.key === ip),
    ).toBeUndefined();
    // The page reads the same list.
    const page = await loadSecurityPage(db, {
      userId: "nobody",
      query: { page: 1 },
      addressLimit: limit,
    });
    expect(page.throttles.some((entry) => entry.key === ip && entry.active)).toBe(true);
  });

  it("shows an email failing five times from one address as blocked there, and lifting that pair lets the right password in", async () => {
    const db = app().db;
    const email = "locked-sec@example.com";
    const ip = "10.63.0.1";
    await provisionAdmin(app(), { email, password: "Locked-admin-pw-94" });
    const actorId = (await adminSession(TEST_ADMIN.email, TEST_ADMIN.password, "10.63.0.9", CHROME))
      .userId;
    for (let i = 0; i < 5; i++) await signIn(app(), { email, password: `wrong-${i}-pw` }, { ip });
    const login = () => signIn(app(), { email, password: "Locked-admin-pw-94" }, { ip });
    expect(await login()).toEqual({ ...refusal("limited", "errors.tooManyAttempts"), minutes: 15 });
    const listed = await listThrottles(db, { addressLimit: app().loginIpLimit });
    const key = pairKey(email, ip);
    expect(listed.find((e) => e.kind === "pair" && e.key === key)).toMatchObject({
      email,
      address: ip,
      active: true,
      attempts: 5,
    });
    // Neither the email across addresses nor the address is blocked.
    expect(listed.some((e) => e.key === email || e.key === ip)).toBe(false);

    // Lifting needs a block in force on exactly that key.
    const lift = (kind: ThrottleKind, liftKey: string) =>
      liftLoginBlock(db, { actorId, kind, key: liftKey, addressLimit: app().loginIpLimit });
    expect(await lift("address", email)).toEqual(
      refusal("conflict", "admin-security.errors.notBlocked"),
    );
    expect(await lift("pair", pairKey(email, "10.63.0.2"))).toEqual(
      refusal("conflict", "admin-security.errors.notBlocked"),
    );
    expect(await auditRows("login_block.lift", actorId)).toEqual([]);

    expect(await lift("pair", key)).toMatchObject({
      ok: true,
      kind: "pair",
      key,
      email,
      address: ip,
      lifted: [{ kind: "pair", key, email, address: ip }],
    });
    const [audit] = await auditRows("login_block.lift", actorId, key);
    expect(audit).toMatchObject({ target_type: "login_block", target_id: key });
    expect(JSON.parse(audit!.before!)).toMatchObject({
      kind: "pair",
      key,
      blocks: [{ kind: "pair", key }],
    });

    const lifted = (await listThrottles(db, { addressLimit: app().loginIpLimit })).find(
      (e) => e.kind === "pair" && e.key === key,
    );
    expect(lifted?.active).toBe(false);
    expect(lifted?.block.liftedAt).toEqual(expect.any(String));
    expect((await login()).ok).toBe(true);
    // That address is now known to the account: failures from it no longer block it.
    for (let i = 0; i < 6; i++) await signIn(app(), { email, password: `again-${i}-pw` }, { ip });
    expect((await login()).ok).toBe(true);
  });

  it("shows an email at its ceiling as blocked, and lifting the email ends its blocks from every address", async () => {
    const db = app().db;
    const email = "ceiling-sec@example.com";
    await provisionAdmin(app(), { email, password: "Ceiling-admin-pw-95" });
    const actorId = (await adminSession(TEST_ADMIN.email, TEST_ADMIN.password, "10.65.0.9", CHROME))
      .userId;
    // 50 failures, 5 from each of 10 addresses: the ceiling and 10 pairs.
    for (let a = 0; a < LOGIN_EMAIL_FAILURE_CEILING / 5; a++)
      for (let i = 0; i < 5; i++)
        await recordLoginAttempt(db, { email, ip: `10.65.1.${a}`, succeeded: false });
    const login = (ip: string) => signIn(app(), { email, password: "Ceiling-admin-pw-95" }, { ip });
    expect(await login("10.65.2.1")).toEqual({
      ...refusal("limited", "errors.tooManyAttempts"),
      minutes: 15,
    });
    const listed = await listThrottles(db, { addressLimit: app().loginIpLimit });
    expect(listed.find((e) => e.kind === "email" && e.key === email)).toMatchObject({
      email,
      address: null,
      active: true,
      attempts: LOGIN_EMAIL_FAILURE_CEILING,
    });
    expect(listed.filter((e) => e.kind === "pair" && e.email === email && e.active)).toHaveLength(
      10,
    );

    const lifted = await liftedBlocks(actorId, "email", email);
    expect(lifted).toHaveLength(11);
    expect(lifted.filter((block) => block.kind === "pair")).toHaveLength(10);
    const [audit] = await auditRows("login_block.lift", actorId, email);
    expect(JSON.parse(audit!.before!).blocks).toHaveLength(11);
    const after = await listThrottles(db, { addressLimit: app().loginIpLimit });
    expect(after.filter((e) => e.email === email && e.active)).toEqual([]);
    expect((await login("10.65.2.1")).ok).toBe(true);
    expect((await login("10.65.1.3")).ok).toBe(true);
  });

  it("lifting an address lifts the blocks of the emails failing from it", async () => {
    const db = app().db;
    const ip = "10.66.0.1";
    const actorId = (await adminSession(TEST_ADMIN.email, TEST_ADMIN.password, "10.66.0.9", CHROME))
      .userId;
    const emails = [unique("a-sec"), unique("b-sec")].map((e) => `${e}@example.com`);
    for (const email of emails)
      for (let i = 0; i < 5; i++) await recordLoginAttempt(db, { email, ip, succeeded: false });
    const lifted = await liftedBlocks(actorId, "address", ip);
    // The address itself was under its per-minute limit: only the two pairs were in force.
    expect(lifted.map((block) => block.key).sort()).toEqual(
      emails.map((email) => pairKey(email, ip)).sort(),
    );
    const login = await signIn(app(), { email: emails[0]!, password: "whatever-1" }, { ip });
    expect(login).toEqual(refusal("unauthenticated", "errors.invalidCredentials"));
  });

  it("lifting an address block lets that address sign in again", async () => {
    const db = app().db;
    const ip = "198.51.100.8";
    const limit = app().loginIpLimit;
    const actorId = (await adminSession(TEST_ADMIN.email, TEST_ADMIN.password, "10.64.0.1", CHROME))
      .userId;
    for (let i = 0; i < limit; i++) {
      await recordLoginAttempt(db, {
        email: `${unique("burst")}@example.com`,
        ip,
        succeeded: false,
      });
    }
    const login = () =>
      signIn(app(), { email: TEST_ADMIN.email, password: TEST_ADMIN.password }, { ip });
    expect(await login()).toEqual({ ...refusal("limited", "errors.tooManyAttempts"), minutes: 1 });
    expect(
      await liftLoginBlock(db, { actorId, kind: "address", key: ip, addressLimit: limit }),
    ).toEqual({
      ok: true,
      kind: "address",
      key: ip,
      email: null,
      address: ip,
      lifted: [{ kind: "address", key: ip, email: null, address: ip, endsAt: expect.any(String) }],
    });
    expect((await login()).ok).toBe(true);
    // Lifted once; there is nothing left to lift.
    expect(
      await liftLoginBlock(db, { actorId, kind: "address", key: ip, addressLimit: limit }),
    ).toEqual(refusal("conflict", "admin-security.errors.notBlocked"));
    expect(await auditRows("login_block.lift", actorId, ip)).toHaveLength(1);
  });

  it("prunes login attempts older than 30 days, at most once an hour", async () => {
    const db = app().db;
    const old = new Date(Date.now() - 31 * 86_400_000);
    const recent = new Date(Date.now() - 29 * 86_400_000);
    await db
      .insertInto("login_attempts")
      .values([
        {
          email: "old@example.com",
          ip_address: "192.0.2.201",
          succeeded: 0,
          created_at: old.toISOString(),
        },
        {
          email: "recent@example.com",
          ip_address: "192.0.2.202",
          succeeded: 0,
          created_at: recent.toISOString(),
        },
      ])
      .execute();
    const now = new Date();
    expect(await pruneLoginRecords(db, now, { force: true })).toBeGreaterThanOrEqual(1);
    const left = await db
      .selectFrom("login_attempts")
      .select("email")
      .where("ip_address", "in", ["192.0.2.201", "192.0.2.202"])
      .execute();
    expect(left.map((r) => r.email)).toEqual(["recent@example.com"]);
    // Not again within the hour.
    expect(await pruneLoginRecords(db, new Date(now.getTime() + 60_000))).toBeNull();
    expect(await pruneLoginRecords(db, new Date(now.getTime() + 3_600_001))).toBe(0);
  });

  it("keeps the form-limit refusals bounded by age and by count", async () => {
    const db = app().db;
    const now = Date.now();
    await recordRateLimitRefusal(
      db,
      { ip: "192.0.2.150", path: "/login", endsAt: new Date(now - 8 * 86_400_000 + 60_000) },
      new Date(now - 8 * 86_400_000),
    );
    await recordRateLimitRefusal(db, {
      ip: "192.0.2.151",
      path: "/register?x=<b>",
      endsAt: new Date(now + 60_000),
    });
    // The worker's housekeeping schedule prunes (no longer the request that records a refusal).
    await pruneRateLimitRefusals(db, new Date(now));
    const rows = await db.selectFrom("rate_limit_refusals").selectAll().execute();
    expect(rows.map((r) => r.ip_address)).toEqual(["192.0.2.151"]);
    expect(rows[0]!.path).toBe("other");
    const listed = await listRateLimitRefusals(db, { limit: 10 });
    expect(listed).toEqual([
      expect.objectContaining({ address: "192.0.2.151", path: "other", active: true }),
    ]);

    // Beyond the newest RATE_LIMIT_REFUSAL_MAX_ROWS, the oldest go: the table cannot grow past it.
    const filler = Array.from({ length: RATE_LIMIT_REFUSAL_MAX_ROWS }, (_, i) => ({
      ip_address: `10.200.${Math.floor(i / 250)}.${i % 250}`,
      path: "/login",
      created_at: new Date(now - 60_000).toISOString(),
      ends_at: new Date(now).toISOString(),
    }));
    for (let i = 0; i < filler.length; i += 1000)
      await db
        .insertInto("rate_limit_refusals")
        .values(filler.slice(i, i + 1000))
        .execute();
    await recordRateLimitRefusal(db, {
      ip: "192.0.2.153",
      path: "/contact",
      endsAt: new Date(now + 60_000),
    });
    await pruneRateLimitRefusals(db, new Date(now));
    const kept = await db
      .selectFrom("rate_limit_refusals")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(kept.n)).toBe(RATE_LIMIT_REFUSAL_MAX_ROWS);
    const gone = await readRows(db, "rate_limit_refusals", ["id"], { ip_address: "192.0.2.151" });
    expect(gone).toEqual([]);
    const newest = await listRateLimitRefusals(db, { limit: 1 });
    expect(newest[0]).toMatchObject({ address: "192.0.2.153", path: "/contact" });
  });
});
