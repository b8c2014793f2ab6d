import { expect, it } from "vitest";
import { getCurrentSession, provisionAdmin, signIn } from "~/domain/accounts/accounts.server";
import { LOGIN_EMAIL_FAILURE_CEILING } from "~/domain/accounts/accounts";
import { pairKey } from "~/domain/accounts/login-throttle";
import { recordLoginAttempt } from "~/domain/accounts/login-throttle.server";
import * as adminLogs from "~/routes/admin/logs";
import * as security from "~/routes/admin/security";
import {
  contextFor,
  cookieHeader,
  formRequest,
  routeArgs,
  settle,
} from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

type Result = { data: Record<string, unknown>; init: { status: number } | null };
type Loaded = {
  sessions: { id: string; current: boolean; userAgent: string | null }[];
  failed: { entries: { email: string; address: string }[]; hasMore: boolean; last24h: number };
  throttles: {
    kind: string;
    key: string;
    email: string | null;
    address: string | null;
    active: boolean;
  }[];
  refusals: unknown[];
  query: Record<string, unknown>;
  addressLimit: number;
};

const EDGE =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36 Edg/125.0.2535.92";

// /admin/security through its route module, as a request reaches it.
describeEachDatabase("the security page's route", (app) => {
  async function login(email: string, password: string, ip: string, userAgent = "vitest") {
    const result = await signIn(app(), { email, password }, { ip, userAgent });
    if (!result.ok) throw new Error(`sign in failed: ${result.error}`);
    const cookie = cookieHeader(result.setCookies);
    const session = await getCurrentSession(app(), cookie);
    return { cookie, sessionId: session!.sessionId, userId: session!.user.id };
  }

  async function load(cookie: string, path = "/admin/security") {
    return (await settle(async () =>
      security.loader(
        routeArgs({
          request: new Request(`http://localhost${path}`, { headers: { cookie } }),
          context: await contextFor(app(), { cookie }),
          params: {},
        }),
      ),
    )) as Loaded;
  }

  async function post(cookie: string, fields: Record<string, string>) {
    return (await settle(async () =>
      security.action(
        routeArgs({
          request: formRequest("/admin/security", fields, cookie),
          context: await contextFor(app(), { cookie }),
          params: {},
        }),
      ),
    )) as Result | Record<string, unknown>;
  }

  it("shows the admin their own sessions only and signs out another one through the action", async () => {
    const here = await login(TEST_ADMIN.email, TEST_ADMIN.password, "10.70.0.1");
    const there = await login(TEST_ADMIN.email, TEST_ADMIN.password, "10.70.0.2", EDGE);
    await provisionAdmin(app(), { email: "route-sec@example.com", password: "Route-admin-pw-81" });
    const other = await login("route-sec@example.com", "Route-admin-pw-81", "10.70.0.3");

    const page = await load(here.cookie);
    const ids = page.sessions.map((s) => s.id);
    expect(ids[0]).toBe(here.sessionId);
    expect(page.sessions[0]!.current).toBe(true);
    expect(ids).toContain(there.sessionId);
    expect(ids).not.toContain(other.sessionId);
    expect(page.sessions.find((s) => s.id === there.sessionId)?.userAgent).toBe(EDGE);
    expect(page.addressLimit).toBe(app().loginIpLimit);

    // Another admin's session id, posted anyway: refused, and it keeps working.
    const refused = (await post(here.cookie, {
      intent: "revoke-session",
      sessionId: other.sessionId,
    })) as Result;
    expect(refused.init?.status).toBe(404);
    expect(refused.data).toMatchObject({
      ok: false,
      intent: "revoke-session",
      message: "admin-security.errors.sessionNotFound",
    });
    expect(await getCurrentSession(app(), other.cookie)).not.toBeNull();

    const current = (await post(here.cookie, {
      intent: "revoke-session",
      sessionId: here.sessionId,
    })) as Result;
    expect(current.init?.status).toBe(409);

    expect(
      await post(here.cookie, { intent: "revoke-session", sessionId: there.sessionId }),
    ).toEqual({
      ok: true,
      intent: "revoke-session",
      message: "admin-security.sessions.ended",
      count: 1,
    });
    // The signed-out cookie no longer authenticates: the page sends it to /login.
    const gone = (await settle(async () => load(there.cookie))) as unknown as Response;
    expect(gone).toBeInstanceOf(Response);
    expect(gone.status).toBe(302);
    expect(gone.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
    expect((await load(here.cookie)).sessions.map((s) => s.id)).not.toContain(there.sessionId);

    // The sign-out is in the audit log, once; the refusals changed nothing and wrote nothing.
    const logs = (await settle(async () =>
      adminLogs.loader(
        routeArgs({
          request: new Request("http://localhost/admin/logs?action=session.", {
            headers: { cookie: here.cookie },
          }),
          context: await contextFor(app(), { cookie: here.cookie }),
          params: {},
        }),
      ),
    )) as { entries: { action: string; targetId: string }[] };
    const revoked = logs.entries.filter((e) => e.action === "session.revoke");
    expect(revoked).toHaveLength(1);
    expect(revoked[0]!.targetId).toBe(here.userId);
  });

  it("signs out all other sessions and keeps the current one", async () => {
    await provisionAdmin(app(), { email: "route-all@example.com", password: "Route-all-pw-82" });
    const here = await login("route-all@example.com", "Route-all-pw-82", "10.71.0.1");
    const second = await login("route-all@example.com", "Route-all-pw-82", "10.71.0.2");
    const third = await login("route-all@example.com", "Route-all-pw-82", "10.71.0.3");
    expect(await post(here.cookie, { intent: "revoke-others" })).toEqual({
      ok: true,
      intent: "revoke-others",
      message: "admin-security.sessions.ended",
      count: 2,
    });
    expect(await getCurrentSession(app(), second.cookie)).toBeNull();
    expect(await getCurrentSession(app(), third.cookie)).toBeNull();
    expect((await load(here.cookie)).sessions.map((s) => s.id)).toEqual([here.sessionId]);
    const again = (await post(here.cookie, { intent: "revoke-others" })) as Result;
    expect(again.init?.status).toBe(409);
    expect(again.data.message).toBe("admin-security.errors.noOtherSessions");
  });

  it("lists failed logins with the filters from the address, and lifts a block", async () => {
    const admin = await login(TEST_ADMIN.email, TEST_ADMIN.password, "10.72.0.1");
    const email = `route-failed-${Date.now()}@example.com`;
    for (let i = 0; i < 5; i++)
      await signIn(app(), { email, password: `wrong-${i}-pw` }, { ip: "203.0.113.5" });

    const page = await load(
      admin.cookie,
      `/admin/security?email=${encodeURIComponent(email)}&address=203.0.113&page=nope`,
    );
    expect(page.query).toEqual({ email, address: "203.0.113", page: 1 });
    expect(page.failed.entries).toHaveLength(5);
    expect(page.failed.entries.every((e) => e.email === email && e.address === "203.0.113.5")).toBe(
      true,
    );
    expect(page.failed.last24h).toBeGreaterThanOrEqual(5);
    // Five failures from one address block that email from that address only.
    const key = pairKey(email, "203.0.113.5");
    expect(page.throttles).toContainEqual(
      expect.objectContaining({ kind: "pair", key, email, address: "203.0.113.5", active: true }),
    );
    expect(page.throttles.some((entry) => entry.kind === "email" && entry.key === email)).toBe(
      false,
    );

    expect(await post(admin.cookie, { intent: "lift-block", kind: "pair", key })).toEqual({
      ok: true,
      intent: "lift-block",
      message: "admin-security.throttles.liftDonePair",
      key: email,
      address: "203.0.113.5",
    });
    const again = (await post(admin.cookie, { intent: "lift-block", kind: "pair", key })) as Result;
    expect(again.init?.status).toBe(409);
    expect(again.data.message).toBe("admin-security.errors.notBlocked");
    expect((await load(admin.cookie)).throttles).toContainEqual(
      expect.objectContaining({ kind: "pair", key, active: false }),
    );

    // An email at its ceiling (failures from many addresses) is listed and lifted as an email.
    const spread = `route-ceiling-${Date.now()}@example.com`;
    for (let i = 0; i < LOGIN_EMAIL_FAILURE_CEILING; i++)
      await recordLoginAttempt(app().db, { email: spread, ip: `203.0.114.${i}`, succeeded: false });
    expect((await load(admin.cookie)).throttles).toContainEqual(
      expect.objectContaining({ kind: "email", key: spread, email: spread, active: true }),
    );
    expect(await post(admin.cookie, { intent: "lift-block", kind: "email", key: spread })).toEqual({
      ok: true,
      intent: "lift-block",
      message: "admin-security.throttles.liftDone",
      key: spread,
    });
  });

  it("answers a malformed post with 400 and the form's message", async () => {
    const admin = await login(TEST_ADMIN.email, TEST_ADMIN.password, "10.73.0.1");
    const unknown = (await post(admin.cookie, { intent: "explode" })) as Result;
    expect(unknown.init?.status).toBe(400);
    expect(unknown.data).toEqual({
      ok: false,
      intent: undefined,
      message: "admin-security.errors.unknownAction",
    });
    const noId = (await post(admin.cookie, { intent: "revoke-session", sessionId: " " })) as Result;
    expect(noId.init?.status).toBe(400);
    expect(noId.data.message).toBe("admin-security.errors.sessionNotFound");
    const badKind = (await post(admin.cookie, {
      intent: "lift-block",
      kind: "planet",
      key: "x",
    })) as Result;
    expect(badKind.init?.status).toBe(400);
    expect(badKind.data.intent).toBe("lift-block");
  });

  it("shows what a stranger typed as data, bounded", async () => {
    const admin = await login(TEST_ADMIN.email, TEST_ADMIN.password, "10.74.0.1");
    await recordLoginAttempt(app().db, {
      email: `<img src=x onerror=alert(1)>${"y".repeat(500)}`,
      ip: "203.0.113.77",
      succeeded: false,
    });
    const page = await load(admin.cookie, "/admin/security?address=203.0.113.77");
    expect(page.failed.entries).toHaveLength(1);
    expect(page.failed.entries[0]!.email.startsWith("<img src=x onerror=alert(1)>")).toBe(true);
    expect(page.failed.entries[0]!.email.length).toBe(254);
  });
});
