import { once } from "node:events";
import type { Server } from "node:http";
import net from "node:net";
import express from "express";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseEnv } from "~/config/env.server";
import type { TrustProxy } from "~/config/trust-proxy.server";
import {
  createServices,
  routerContextFor,
  translatorFor,
  type AppServices,
} from "~/context.server";
import { reactRouterHandler } from "../../server/react-router-handler";
import { attachRequestContext, contextOf, signedInRequest } from "../../server/request-context";
import {
  PUBLIC_FORMS,
  requestLimits,
  UPLOAD_FORMS,
  WEBHOOK_ROUTES,
  type LimitSettings,
} from "../../server/request-limits";
import { recordRateLimitRefusal } from "~/domain/accounts/rate-limit-refusals.server";
import { recordNotificationRefusal } from "~/domain/payments/notification-refusals.server";
import { MAX_NOTIFICATION_BYTES } from "~/domain/payments/providers/provider";
import { countFormPost, pruneFormWindows } from "~/domain/request-limits/request-limits.server";
import { registeredCustomer, signedInCookie } from "../support/account-fixtures";
import { flattenRoutes, routeModule, serverBuild } from "../support/app-harness";
import { atOnce, describeEachDatabase, testEnv } from "../support/test-database";

/**
 * The limits in front of React Router, through a real Express server on a real port: server/app.ts's
 * request-limits, request context and React Router handler over the app's own routes (the test
 * harness's build of app/routes.ts), on each database. The limits are set low here through their
 * settings. tests/e2e/request-limits.spec.ts runs the production build the same way.
 */

const LIMITS: LimitSettings = {
  FORM_RATE_LIMIT_PER_MINUTE: 3,
  BODY_LIMIT_PUBLIC: 4096,
  BODY_LIMIT_CUSTOMER: 8192,
  BODY_LIMIT_ADMIN: 16384,
  BODY_LIMIT_UPLOAD: 32768,
};

interface Stack {
  url: string;
  close: () => Promise<void>;
}

/**
 * The refusals' database writes every stack started, by client address: the answer does not wait for
 * its write, and a test awaits these instead.
 */
const refusalWrites: { ip: string; write: Promise<void> }[] = [];
/** The oversized notifications' writes, likewise. */
const webhookWrites: Promise<void>[] = [];

async function startStack(
  services: AppServices,
  options: { trustProxy?: TrustProxy; limits?: Partial<LimitSettings> } = {},
): Promise<Stack> {
  const build = await serverBuild();
  const app = express();
  app.set("trust proxy", options.trustProxy ?? ["loopback"]);
  app.use(
    requestLimits({
      db: services.db,
      settings: { ...LIMITS, ...options.limits },
      build,
      recordRefusal: (db, refusal, at) => {
        const write = recordRateLimitRefusal(db, refusal, at);
        refusalWrites.push({ ip: refusal.ip, write });
        return write;
      },
      recordWebhookRefusal: (db, refusal) => {
        const write = recordNotificationRefusal(db, refusal);
        webhookWrites.push(write);
        return write;
      },
      translate: (req) =>
        translatorFor(services, {
          cookie: req.get("cookie") ?? null,
          acceptLanguage: req.get("accept-language") ?? null,
        }),
      signedIn: signedInRequest(services),
    }),
  );
  app.use(attachRequestContext(services));
  app.use(
    reactRouterHandler({
      build,
      getLoadContext: (_req, res) => routerContextFor(contextOf(res)),
      mode: "production",
    }),
  );
  const server: Server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let addressCount = 0;
/** A fresh client address (sent as X-Forwarded-For from loopback, which the default trusts). */
const newAddress = () => {
  addressCount += 1;
  return `198.18.${Math.floor(addressCount / 250)}.${(addressCount % 250) + 1}`;
};

function post(
  stack: Stack,
  path: string,
  options: {
    ip?: string;
    form?: Record<string, string>;
    body?: string;
    headers?: Record<string, string>;
  } = {},
) {
  return fetch(`${stack.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(options.ip ? { "x-forwarded-for": options.ip } : {}),
      ...options.headers,
    },
    body: options.body ?? new URLSearchParams(options.form ?? {}).toString(),
  });
}

/** `/login` spelled every way React Router runs the same action for. */
function spellings(path: string): string[] {
  const first = path.charCodeAt(1).toString(16).toUpperCase();
  const encoded = `/%${first}${path.slice(2)}`;
  return [path, `${path}.data`, encoded, `${encoded}.data`, `${path.toUpperCase()}/`];
}

const contactForm = (n: number) => ({
  name: "Flood",
  email: "flood@example.com",
  subject: `Message ${n}`,
  message: "Hello",
});

describeEachDatabase("request limits in front of React Router", (app) => {
  let stack: Stack;
  let customers = 0;
  /** A new customer's Cookie header (the uploads' limit is for signed-in accounts). */
  async function customerCookie() {
    const account = {
      email: `uploader${++customers}@example.com`,
      password: "Quartz-Lantern-58",
    };
    await registeredCustomer(app(), { ...account, name: "Uploader" });
    return signedInCookie(app(), account, { ip: newAddress() });
  }
  beforeAll(async () => {
    stack = await startStack(app());
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("stores no more contact messages than the limit, whichever URL they are posted to", async () => {
    // The reported case: 65 posts to /contact.data were all stored while /contact stopped at 60.
    const ip = newAddress();
    const statuses: number[] = [];
    for (let n = 1; n <= 6; n++) {
      const path = ["/contact.data", "/contact", "/%63ontact"][n % 3]!;
      statuses.push((await post(stack, path, { ip, form: contactForm(n) })).status);
    }
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses.slice(3)).toEqual([429, 429, 429]);
    const stored = await app()
      .db.selectFrom("contact_messages")
      .select("subject")
      .where("email", "=", "flood@example.com")
      .execute();
    expect(stored).toHaveLength(3);
  });

  it("counts every spelling of every public form's URL as that form, and refuses each over the limit", async () => {
    const limit = LIMITS.FORM_RATE_LIMIT_PER_MINUTE;
    for (const form of Object.values(PUBLIC_FORMS)) {
      const all = spellings(form);
      for (const spelling of all) {
        // The other spellings use up the limit; this one is refused.
        const first = newAddress();
        for (let i = 0; i < limit; i++) {
          const response = await post(stack, all[(all.indexOf(spelling) + 1 + i) % all.length]!, {
            ip: first,
          });
          expect(response.status, `${spelling} before the limit`).not.toBe(429);
          expect(response.status).toBeLessThan(500);
        }
        expect((await post(stack, spelling, { ip: first })).status, spelling).toBe(429);
        // This spelling uses up the limit; the plain URL is refused.
        const second = newAddress();
        for (let i = 0; i < limit; i++)
          expect((await post(stack, spelling, { ip: second })).status, spelling).not.toBe(429);
        expect((await post(stack, form, { ip: second })).status, `${form} after ${spelling}`).toBe(
          429,
        );
      }
    }
  });

  it("keeps one count per form: using up one form's limit leaves the others open", async () => {
    const ip = newAddress();
    for (let i = 0; i < LIMITS.FORM_RATE_LIMIT_PER_MINUTE; i++)
      await post(stack, "/login.data", { ip });
    expect((await post(stack, "/login", { ip })).status).toBe(429);
    expect((await post(stack, "/newsletter", { ip, form: { email: "x" } })).status).not.toBe(429);
  });

  it("answers a refusal in the visitor's language, says when to retry, and records it once", async () => {
    const ip = newAddress();
    const answers = [];
    for (let i = 0; i < LIMITS.FORM_RATE_LIMIT_PER_MINUTE + 3; i++)
      answers.push(
        await post(stack, "/register.data", { ip, headers: { "accept-language": "fr" } }),
      );
    const refused = answers.at(-1)!;
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await refused.text()).toBe("Trop de requêtes. Patientez une minute puis réessayez.");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // The posts of the last minute count in slots of ten seconds: a refusal ends within 70 s.
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(70);
    expect(refused.headers.get("ratelimit")).toMatch(/^"form";r=0;t=\d+$/);
    expect(answers[0]!.headers.get("ratelimit")).toMatch(/^"form";r=2;t=\d+$/);

    // Each refusal's write starts before its answer goes out: every write for this address has started.
    const writes = refusalWrites.filter((each) => each.ip === ip);
    await Promise.all(writes.map((each) => each.write));
    expect(writes).toHaveLength(1);
    const rows = await app()
      .db.selectFrom("rate_limit_refusals")
      .select(["ip_address", "path"])
      .where("ip_address", "=", ip)
      .execute();
    expect(rows).toEqual([{ ip_address: ip, path: "/register" }]);
    // The refusals after the first cost no database write: the server remembers the address. The posts
    // count in slots of ten seconds, so posts that cross a slot's end are in two rows: all are added up.
    const windows = await app()
      .db.selectFrom("form_rate_windows")
      .select("hits")
      .where("ip_address", "=", ip)
      .execute();
    expect(windows.reduce((sum, window) => sum + Number(window.hits), 0)).toBe(
      LIMITS.FORM_RATE_LIMIT_PER_MINUTE + 1,
    );
    expect(
      await app()
        .db.selectFrom("rate_limit_refusals")
        .select("id")
        .where("ip_address", "=", ip)
        .execute(),
    ).toHaveLength(1);
  });

  it("shares the count between two servers on one database, also for posts sent at once", async () => {
    const other = createServices(testEnv(app().env.DATABASE_URL));
    const second = await startStack(other);
    try {
      const ip = newAddress();
      expect((await post(stack, "/contact", { ip })).status).not.toBe(429);
      expect((await post(second, "/contact.data", { ip })).status).not.toBe(429);
      expect((await post(stack, "/%63ontact", { ip })).status).not.toBe(429);
      expect((await post(second, "/contact", { ip })).status).toBe(429);

      // Twelve at once through both: exactly the limit get through.
      const together = newAddress();
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          post(i % 2 ? second : stack, i % 3 ? "/newsletter.data" : "/newsletter", {
            ip: together,
            form: { email: "not-an-email" },
          }),
        ),
      );
      const statuses = answers.map((response) => response.status);
      expect(statuses.filter((status) => status !== 429)).toHaveLength(
        LIMITS.FORM_RATE_LIMIT_PER_MINUTE,
      );
      // Refused posts are counted too: over the limit in all, summed over the form's slots, as the
      // twelve may straddle a slot's edge (the first slot alone then held exactly the limit).
      const rows = await app()
        .db.selectFrom("form_rate_windows")
        .select("hits")
        .where("ip_address", "=", together)
        .where("form", "=", "/newsletter")
        .execute();
      const hits = rows.reduce((sum, row) => sum + Number(row.hits), 0);
      expect(hits).toBeGreaterThan(LIMITS.FORM_RATE_LIMIT_PER_MINUTE);
    } finally {
      await second.close();
      await other.database.destroy();
    }
  });

  it("refuses a body over its route's limit by its Content-Length, in the visitor's language", async () => {
    const before = await app().db.selectFrom("contact_messages").select("id").execute();
    const big = { ...contactForm(0), message: "x".repeat(5000) }; // > 4 KiB encoded
    for (const path of ["/contact", "/contact.data", "/%63ontact", "/CONTACT/"]) {
      const response = await post(stack, path, { ip: newAddress(), form: big });
      expect(response.status, path).toBe(413);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(await response.text()).toBe("This request is too large and was refused.");
    }
    const arabic = await post(stack, "/contact", {
      ip: newAddress(),
      form: big,
      headers: { "accept-language": "ar" },
    });
    expect(await arabic.text()).toBe("هذا الطلب كبير جدًا وتم رفضه.");
    expect(await app().db.selectFrom("contact_messages").select("id").execute()).toHaveLength(
      before.length,
    );
    // Just under the limit: read and handed to the action.
    const fits = await post(stack, "/contact.data", {
      ip: newAddress(),
      form: { ...contactForm(0), email: "fits@example.com", message: "y".repeat(3900) },
    });
    expect(fits.status).toBe(200);
    expect(
      await app()
        .db.selectFrom("contact_messages")
        .select("id")
        .where("email", "=", "fits@example.com")
        .execute(),
    ).toHaveLength(1);
  });

  it("counts a notification refused for its size for the admin, declared or streamed, unread", async () => {
    const tooLarge = () =>
      app()
        .db.selectFrom("provider_notification_refusals")
        .select(["provider", "reason", "key", "bytes", "count"])
        .where("reason", "=", "tooLarge")
        .orderBy("id")
        .execute();
    const body = "x".repeat(MAX_NOTIFICATION_BYTES + 1);
    for (const path of ["/hooks/payments/paypal", "/hooks/payments/stripe"]) {
      const response = await post(stack, path, {
        body,
        headers: { "content-type": "application/json" },
      });
      expect(response.status, path).toBe(413);
    }
    await Promise.all(webhookWrites);
    // The provider we have is counted with the size it declared; a made-up one makes no row.
    expect(await tooLarge()).toEqual([
      { provider: "paypal", reason: "tooLarge", key: "", bytes: body.length, count: 1 },
    ]);

    // Streamed with no length: refused once past the limit, counted without a size.
    const { hostname, port } = new URL(stack.url);
    const socket = net.connect(Number(port), hostname);
    await once(socket, "connect");
    let answer = "";
    socket.on("data", (data: Buffer) => (answer += data.toString()));
    socket.on("error", () => {});
    const closed = once(socket, "close");
    const chunk = Buffer.alloc(48 * 1024, "a");
    socket.write(
      "POST /hooks/payments/paypal HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n" +
        "Content-Type: application/json\r\n\r\n",
    );
    for (let i = 0; i < 2; i++)
      socket.write(
        Buffer.concat([
          Buffer.from(`${chunk.length.toString(16)}\r\n`),
          chunk,
          Buffer.from("\r\n"),
        ]),
      );
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    await Promise.all(webhookWrites);
    expect(await tooLarge()).toEqual([
      { provider: "paypal", reason: "tooLarge", key: "", bytes: body.length, count: 2 },
    ]);
    expect(await app().db.selectFrom("provider_notifications").select("id").execute()).toHaveLength(
      0,
    );
  });

  it("gives the client area and the admin panel their own body limits", async () => {
    const body = (bytes: number) => `intent=x&filler=${"z".repeat(bytes)}`;
    // 6 KiB: over the public forms' limit, within the client area's and the admin panel's.
    expect((await post(stack, "/contact", { body: body(6000) })).status).toBe(413);
    expect((await post(stack, "/support/new", { body: body(6000) })).status).not.toBe(413);
    expect((await post(stack, "/support/new", { body: body(9000) })).status).toBe(413);
    expect((await post(stack, "/admin/settings.data", { body: body(12000) })).status).not.toBe(413);
    expect((await post(stack, "/Admin/Settings", { body: body(17000) })).status).toBe(413);
    // A request that runs no action gets the public forms' limit.
    expect((await post(stack, "/about", { body: body(6000) })).status).toBe(413);
  });

  it("gives the uploads their own body limit, and leaves every other route's as it was", async () => {
    // The upload actions are named by route id: a renamed route would quietly lose its limit.
    expect(Object.keys((await serverBuild()).routes)).toEqual(
      expect.arrayContaining([...UPLOAD_FORMS]),
    );
    const cookie = await customerCookie();
    const upload = (path: string, bytes: number, signedIn = true) => {
      const form = new FormData();
      form.set("intent", "paid");
      form.append("proofs", new File([new Uint8Array(bytes)], "proof.png", { type: "image/png" }));
      return fetch(`${stack.url}${path}`, {
        method: "POST",
        redirect: "manual",
        body: form,
        headers: signedIn ? { cookie } : {},
      });
    };
    // 20 KiB: over the client area's limit (8 KiB), within the uploads' (32 KiB here).
    for (const path of ["/dashboard/top-up", "/dashboard/top-up.data", "/Dashboard/Top-Up/"])
      expect((await upload(path, 20_000)).status, path).not.toBe(413);
    expect((await upload("/dashboard/top-up.data", 40_000)).status).toBe(413);
    // A ticket's message takes files too: the new ticket, the customer's reply, the staff's.
    for (const path of ["/support/new.data", "/support/1.data", "/admin/tickets/1.data"])
      expect((await upload(path, 20_000)).status, path).not.toBe(413);
    expect((await upload("/support/new.data", 40_000)).status).toBe(413);
    // Sent as a plain form, they keep the client area's limit (8 KiB): only a multipart post uploads.
    expect(
      (
        await post(stack, "/support/new", {
          body: `message=${"z".repeat(9000)}`,
          headers: { cookie },
        })
      ).status,
    ).toBe(413);
    // A visitor's upload gets the public forms' limit (4 KiB here): it would only be sent to sign in.
    expect((await upload("/dashboard/top-up.data", 3_000, false)).status).not.toBe(413);
    expect((await upload("/dashboard/top-up.data", 20_000, false)).status).toBe(413);
    expect((await upload("/dashboard/top-up", 20_000, false)).status).toBe(413);
    // So does a cookie that names no live session.
    const forged = cookie.replace(/=([^.;]{4})/, "=AAAA");
    expect(forged).not.toBe(cookie);
    const withForged = new FormData();
    withForged.append("proofs", new File([new Uint8Array(20_000)], "proof.png"));
    const refused = await fetch(`${stack.url}/dashboard/top-up.data`, {
      method: "POST",
      redirect: "manual",
      body: withForged,
      headers: { cookie: forged },
    });
    expect(refused.status).toBe(413);
    // The other actions keep theirs, whatever they are sent.
    for (const path of ["/dashboard", "/dashboard/account", "/dashboard/top-up/proofs/1"])
      expect((await upload(path, 20_000)).status, path).toBe(413);
    expect((await upload("/admin/settings", 12_000)).status).not.toBe(413);
    expect((await upload("/admin/settings", 20_000)).status).toBe(413);
    expect((await upload("/contact", 6_000)).status).toBe(413);
  });

  it("takes three files of 5 MiB with their form under the default limits, and refuses more", async () => {
    const defaults = parseEnv({});
    const real = await startStack(app(), {
      limits: {
        BODY_LIMIT_PUBLIC: defaults.BODY_LIMIT_PUBLIC,
        BODY_LIMIT_CUSTOMER: defaults.BODY_LIMIT_CUSTOMER,
        BODY_LIMIT_ADMIN: defaults.BODY_LIMIT_ADMIN,
        BODY_LIMIT_UPLOAD: defaults.BODY_LIMIT_UPLOAD,
      },
    });
    try {
      const cookie = await customerCookie();
      const upload = (path: string, files: number[]) => {
        const form = new FormData();
        form.set("intent", "paid");
        form.set("payerAccount", "0612 345 678");
        for (const size of files)
          form.append("proofs", new File([new Uint8Array(size)], "proof.png"));
        return fetch(`${real.url}${path}`, {
          method: "POST",
          redirect: "manual",
          body: form,
          headers: { cookie },
        });
      };
      const fiveMiB = 5 * 1024 ** 2;
      expect((await upload("/dashboard/top-up.data", [fiveMiB, fiveMiB, fiveMiB])).status).not.toBe(
        413,
      );
      const refused = await upload("/dashboard/top-up.data", [
        fiveMiB,
        fiveMiB,
        fiveMiB,
        2 * 1024 ** 2,
      ]);
      expect(refused.status).toBe(413);
      expect(await refused.text()).toBe("This request is too large and was refused.");
      // A ticket's message with its files at their ceiling (15 MiB) fits the same limit.
      expect((await upload("/support/new.data", [fiveMiB, fiveMiB, fiveMiB])).status).not.toBe(413);
      // A client-area form that takes no files still stops at 64 KiB.
      expect((await upload("/dashboard/account", [65 * 1024])).status).toBe(413);
      expect((await upload("/dashboard/account", [60 * 1024])).status).not.toBe(413);
    } finally {
      await real.close();
    }
  });

  it("stops reading a streamed body as soon as it passes the limit", async () => {
    // A chunked body (no Content-Length to check first) of up to 256 MiB, sent as fast as the server
    // takes it: the server must answer 413 and close the connection long before it is all sent.
    const { hostname, port } = new URL(stack.url);
    const socket = net.connect(Number(port), hostname);
    await once(socket, "connect");
    socket.write(
      "POST /contact.data HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n" +
        "Content-Type: application/x-www-form-urlencoded\r\n\r\n",
    );
    let answer = "";
    let closed = false;
    socket.on("data", (data: Buffer) => (answer += data.toString()));
    // A socket emits "close" after an "error" too (EPIPE, ECONNRESET: the server closed first).
    socket.on("error", () => {});
    const whenClosed = new Promise<void>((resolve) =>
      socket.once("close", () => {
        closed = true;
        resolve();
      }),
    );
    const chunk = Buffer.alloc(64 * 1024, "a");
    const frame = Buffer.concat([
      Buffer.from(`${chunk.length.toString(16)}\r\n`),
      chunk,
      Buffer.from("\r\n"),
    ]);
    const planned = 256 * 1024 ** 2;
    let sent = 0;
    // Written as fast as the server reads: a full buffer waits for the server to read more, or to close.
    while (!closed && sent < planned) {
      if (!socket.write(frame))
        await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), whenClosed]);
      sent += frame.length;
    }
    // What was sent before the server closed is what the kernel's buffers took, a few MiB at most (a
    // server that read it all ends the loop at `planned`).
    expect(sent).toBeLessThan(32 * 1024 ** 2);
    await whenClosed;
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain("This request is too large and was refused.");
    expect(closed).toBe(true);
  });

  it("lets only an anonymous visitor's forms through unsigned; every other action refuses them first", async () => {
    const build = await serverBuild();
    const withAction = [];
    for (const route of flattenRoutes())
      if (typeof (await routeModule(route.file)).action === "function") withAction.push(route);
    for (const id of Object.keys(PUBLIC_FORMS))
      expect(
        withAction.map((route) => route.id),
        id,
      ).toContain(id);
    expect(Object.keys(build.routes)).toEqual(expect.arrayContaining(Object.keys(PUBLIC_FORMS)));
    // A webhook is posted by another server, unsigned in: it answers for itself (its signature).
    for (const id of WEBHOOK_ROUTES) {
      const route = withAction.find((each) => each.id === id)!;
      const path = route.pattern.replace(/:\w+/g, "paypal");
      const response = await post(stack, path, { ip: newAddress(), body: "{}" });
      expect(response.headers.get("location"), id).toBeNull();
      expect(response.headers.get("content-type"), id).toMatch(/^application\/json/);
    }
    for (const route of withAction.filter(
      (r) => !(r.id in PUBLIC_FORMS) && !WEBHOOK_ROUTES.has(r.id),
    )) {
      const path = route.pattern.replace(/:\w+/g, "1");
      const response = await post(stack, path, { ip: newAddress(), form: { intent: "probe" } });
      const location = response.headers.get("location") ?? "";
      const refused =
        (response.status >= 300 && response.status < 400 && location.startsWith("/login")) ||
        [401, 403].includes(response.status);
      expect(refused, `${route.id} (${path}): ${response.status} ${location}`).toBe(true);
    }
  });
});

describeEachDatabase("the client address behind proxies (TRUST_PROXY)", (app) => {
  const windowsOf = async (ips: string[]) =>
    (
      await app()
        .db.selectFrom("form_rate_windows")
        .select("ip_address")
        .where("ip_address", "in", ips)
        .execute()
    ).map((row) => row.ip_address);

  it("believes X-Forwarded-For from a trusted proxy only", async () => {
    // Loopback (the default) is trusted: the address the proxy on this machine forwards is counted.
    const trusting = await startStack(app());
    // A server told to trust another proxy only: the connection's own address is the client's.
    const other = await startStack(app(), { trustProxy: ["10.9.9.9"] });
    const byHops = await startStack(app(), { trustProxy: 1 });
    try {
      await post(trusting, "/newsletter", { ip: "203.0.113.10", form: { email: "x" } });
      await post(other, "/language", { ip: "203.0.113.11", form: { lang: "fr" } });
      await post(byHops, "/logout", { ip: "203.0.113.12, 203.0.113.13" });
      expect(
        await windowsOf(["203.0.113.10", "203.0.113.11", "203.0.113.12", "203.0.113.13"]),
      ).toEqual(["203.0.113.10", "203.0.113.13"]);
      const loopback = await app()
        .db.selectFrom("form_rate_windows")
        .select("ip_address")
        .where("form", "=", "/language")
        .execute();
      expect(loopback.map((row) => row.ip_address)).toEqual(["127.0.0.1"]);

      // The login throttle counts by the same address.
      await post(trusting, "/login", {
        ip: "203.0.113.20",
        form: { email: "nobody@example.com", password: "Wrong-password-1" },
      });
      await post(other, "/login", {
        ip: "203.0.113.21",
        form: { email: "nobody@example.com", password: "Wrong-password-1" },
      });
      const attempts = await app()
        .db.selectFrom("login_attempts")
        .select("ip_address")
        .where("email", "=", "nobody@example.com")
        .orderBy("id")
        .execute();
      expect(attempts.map((row) => row.ip_address)).toEqual(["203.0.113.20", "127.0.0.1"]);
    } finally {
      await Promise.all([trusting.close(), other.close(), byHops.close()]);
    }
  });
});

describeEachDatabase(
  "the form limit's count over time (countFormPost, a clock of its own)",
  (app, dialect) => {
    const at = (time: string) => new Date(`2026-11-23T10:${time}Z`);
    const count = (ip: string, time: string, limit = 4) =>
      countFormPost(app().db, { ip, form: "/contact", limit }, at(time));

    it("lets no more than the limit through around a minute's edge, and lets posts in a minute on", async () => {
      const ip = newAddress();
      for (const time of ["15:59.100", "15:59.200", "15:59.300", "15:59.400"])
        expect((await count(ip, time)).allowed).toBe(true);
      // A fixed window would start again at 16:00: the posts of 15:59 still count.
      const edge = await count(ip, "16:00.500");
      expect(edge).toMatchObject({ allowed: false, firstRefusal: true, resetAt: at("17:00.000") });
      expect(await count(ip, "16:30.000")).toMatchObject({ allowed: false, firstRefusal: false });
      // At 17:00 the slot of 15:50 is out of the count; the refused posts of 16:00 and 16:30 are not.
      expect(await count(ip, "17:00.000")).toMatchObject({ allowed: true, remaining: 1 });
      expect((await count(ip, "17:01.000")).allowed).toBe(true);
      expect(await count(ip, "17:02.000")).toMatchObject({ allowed: false, firstRefusal: true });
    });

    it(
      atOnce(
        dialect,
        "counts posts sent at once exactly: the limit less what the earlier slots hold",
      ),
      async () => {
        const ip = newAddress();
        await count(ip, "20:05.000", 10);
        await count(ip, "20:15.000", 10);
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => count(ip, "20:40.000", 10)),
        );
        expect(answers.filter((answer) => answer.allowed)).toHaveLength(8);
        expect(answers.filter((answer) => answer.firstRefusal)).toHaveLength(1);
      },
    );

    it("prunes only the slots no post is counted with any more", async () => {
      const ip = newAddress();
      await count(ip, "30:00.000");
      await count(ip, "30:55.000");
      await pruneFormWindows(app().db, at("31:05.000"), { force: true });
      const slots = async () =>
        (
          await app()
            .db.selectFrom("form_rate_windows")
            .select("window_start")
            .where("ip_address", "=", ip)
            .orderBy("window_start")
            .execute()
        ).map((row) => row.window_start);
      // 30:00 is still counted with a post at 31:05 (the sixth slot before 31:00).
      expect(await slots()).toEqual([at("30:00.000").toISOString(), at("30:50.000").toISOString()]);
      await pruneFormWindows(app().db, at("31:10.000"), { force: true });
      expect(await slots()).toEqual([at("30:50.000").toISOString()]);
    });
  },
);
