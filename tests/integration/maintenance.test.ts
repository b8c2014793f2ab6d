import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import { saveSettingsForm } from "~/domain/settings/settings-form.server";
import * as login from "~/routes/login";
import * as maintenance from "~/routes/maintenance";
import { maintenanceGate } from "../../server/maintenance";
import { attachRequestContext, contextOf } from "../../server/request-context";
import { adminId, customerWithCoins } from "../support/money-fixtures";
import {
  contextFor,
  cookieHeader,
  formRequest,
  routeArgs,
  settle,
} from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

type Seen = { method: string; url: string; role: string | null; body: string };

// The gate as server/app.ts mounts it (context, then gate), in front of a stand-in for React Router that
// reports what reached it. The maintenance page itself is the route's loader, tested below.
describeEachDatabase("maintenance mode", (app) => {
  let server: ReturnType<express.Express["listen"]>;
  let base: string;
  let admin: string;
  let customer: string;
  let customerEmail: string;

  beforeAll(async () => {
    const web = express();
    web.use(attachRequestContext(app()));
    web.use(maintenanceGate(contextOf));
    web.use(express.text({ type: "*/*" }), (req, res) => {
      const seen: Seen = {
        method: req.method,
        url: req.originalUrl,
        role: contextOf(res).session?.user.role ?? null,
        body: typeof req.body === "string" ? req.body : "",
      };
      res.json(seen);
    });
    server = web.listen(0);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const signedIn = async (email: string, password: string) => {
      const result = await signIn(app(), { email, password }, { ip: "10.70.0.1" });
      if (!result.ok) throw new Error(`sign in failed for ${email}`);
      return cookieHeader(result.setCookies);
    };
    admin = await signedIn(TEST_ADMIN.email, TEST_ADMIN.password);
    const id = await customerWithCoins(app(), 0);
    customerEmail = (
      await app()
        .db.selectFrom("users")
        .select("email")
        .where("id", "=", id)
        .executeTakeFirstOrThrow()
    ).email;
    customer = await signedIn(customerEmail, "Buyer-pw-8842");
  });

  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  async function setMaintenance(on: boolean) {
    await saveSettingsForm(app(), {
      intent: "maintenance",
      maintenanceMode: on,
      maintenanceMessage: on ? "Back at 18:00" : "",
      actorId: await adminId(app()),
    });
  }

  afterEach(() => setMaintenance(false));

  async function send(
    path: string,
    options: { cookie?: string; method?: string; body?: string } = {},
  ) {
    const response = await fetch(`${base}${path}`, {
      method: options.method ?? "GET",
      headers: {
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(options.body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: options.body,
      redirect: "manual",
    });
    return {
      status: response.status,
      headers: response.headers,
      seen: response.status === 200 ? ((await response.json()) as Seen) : null,
    };
  }

  it("lets every request through while maintenance is off", async () => {
    expect((await send("/contact")).seen).toMatchObject({ method: "GET", url: "/contact" });
    expect((await send("/contact", { method: "POST", body: "name=a" })).seen).toMatchObject({
      method: "POST",
      url: "/contact",
      body: "name=a",
    });
  });

  it("sends visitors' and customers' pages and form posts to the maintenance page; nothing else runs", async () => {
    await setMaintenance(true);
    for (const cookie of [undefined, customer]) {
      for (const path of [
        "/",
        "/contact?lang=fr",
        "/dashboard",
        "/admin/settings",
        "/no-such-page",
      ]) {
        const { seen } = await send(path, { cookie });
        expect(seen, `${path} as ${cookie ? "customer" : "visitor"}`).toMatchObject({
          method: "GET",
          url: `/maintenance${path.includes("?") ? path.slice(path.indexOf("?")) : ""}`,
        });
      }
      // A form post is answered with the page too, as a GET: its action never runs.
      for (const path of ["/contact", "/register", "/newsletter", "/order", "/support/new"]) {
        const { seen } = await send(path, { cookie, method: "POST", body: "email=a%40b.example" });
        expect(seen, `POST ${path}`).toMatchObject({ method: "GET", url: "/maintenance" });
      }
    }
    expect((await send("/dashboard", { cookie: customer })).seen?.role).toBe("user");
  });

  it("tells a page that was already open to load itself again (then it gets the maintenance page)", async () => {
    await setMaintenance(true);
    for (const method of ["GET", "POST"]) {
      const response = await send("/contact.data?_routes=routes%2Fsite%2Fcontact", {
        cookie: customer,
        method,
        ...(method === "POST" ? { body: "name=a" } : {}),
      });
      expect(response.status).toBe(204);
      expect(response.headers.get("x-remix-redirect")).toBe("/contact");
      expect(response.headers.get("x-remix-reload-document")).toBe("true");
    }
  });

  it("lets admins through everywhere, and everyone reach /login, /logout and /language", async () => {
    await setMaintenance(true);
    for (const path of ["/", "/contact", "/admin/settings", "/dashboard"])
      expect((await send(path, { cookie: admin })).seen, path).toMatchObject({
        method: "GET",
        url: path,
        role: "admin",
      });
    expect(
      (await send("/admin/settings", { cookie: admin, method: "POST", body: "intent=maintenance" }))
        .seen,
    ).toMatchObject({ method: "POST", url: "/admin/settings" });
    for (const path of ["/login", "/login?redirectTo=%2Fadmin", "/logout", "/language"])
      expect((await send(path)).seen, path).toMatchObject({ url: path });
    expect(
      (await send("/login", { method: "POST", body: "email=a%40b.example" })).seen,
    ).toMatchObject({ method: "POST", url: "/login" });
  });

  it("signs a customer in at /login, whose next page is the maintenance page", async () => {
    await setMaintenance(true);
    const result = await settle(async () =>
      login.action(
        routeArgs({
          request: formRequest("/login", { email: customerEmail, password: "Buyer-pw-8842" }),
          context: await contextFor(app(), { ip: "10.70.0.9" }),
          params: {},
        }),
      ),
    );
    expect(result).toBeInstanceOf(Response);
    const response = result as Response;
    expect(response.headers.get("location")).toBe("/dashboard");
    const cookie = cookieHeader(response.headers.getSetCookie());
    expect((await send("/dashboard", { cookie })).seen).toMatchObject({ url: "/maintenance" });
  });

  it("the maintenance page: 503 with the message and Retry-After; 404 when maintenance is off", async () => {
    const page = async (cookie?: string) =>
      settle(async () =>
        maintenance.loader(
          routeArgs({
            request: new Request("http://localhost/maintenance"),
            context: await contextFor(app(), { cookie }),
            params: {},
          }),
        ),
      ) as Promise<{
        data: Record<string, unknown>;
        init: { status: number; headers: Record<string, string> };
      }>;

    const off = (await page()) as unknown as { init: { status: number } };
    expect(off.init.status).toBe(404);
    // An admin may preview it while it is off.
    expect((await page(admin)).init.status).toBe(200);

    await setMaintenance(true);
    for (const cookie of [undefined, customer]) {
      const on = await page(cookie);
      expect(on.init.status).toBe(503);
      expect(on.init.headers["Retry-After"]).toBe(
        String(maintenance.MAINTENANCE_RETRY_AFTER_SECONDS),
      );
      expect(on.init.headers["Cache-Control"]).toBe("no-store");
      expect(on.data).toMatchObject({ message: "Back at 18:00", preview: null });
    }
    expect((await page(admin)).data.preview).toEqual({ maintenanceMode: true });
  });
});
