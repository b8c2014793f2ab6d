import { once } from "node:events";
import { rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import { ServerStopped, startOwnServer, type OwnServer } from "../support/own-server";
import { ADMIN_EMAIL, ADMIN_PASSWORD, AUTH_SECRET, expect, test } from "./fixtures";
import { e2eFolder } from "../support/scratch";

// The request limits of the production build (server/index.ts and the bundled server/app.ts), on
// servers of their own with the limits set low: the shared e2e servers raise them for every other test.
// Plain HTTP, no browser. tests/integration/request-limits.test.ts covers the same on PostgreSQL too.

test.describe.configure({ mode: "serial" });

const LIMIT = 4;
/** Every form a visitor may post without signing in (server/request-limits.ts, PUBLIC_FORMS). */
const PUBLIC_FORMS = [
  "/login",
  "/register",
  "/contact",
  "/newsletter",
  "/language",
  "/logout",
  "/forgot-password",
  "/reset-password",
];

type Server = OwnServer;

const folder = e2eFolder(`e2e-limits-${process.env.E2E_PORT ?? 3210}`);
const databaseFile = path.join(folder, "hostfront.db");

/** A server on the spec's one database (every server started here shares it), with the limits low. */
function startServer(extra: Record<string, string> = {}): Promise<Server> {
  return startOwnServer({
    folder,
    keepDatabase: true,
    env: {
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      AUTH_SECRET,
      FORM_RATE_LIMIT_PER_MINUTE: String(LIMIT),
      ...extra,
    },
  });
}

async function stopServer(server: Server | undefined) {
  await server?.stop();
}

function post(server: Server, url: string, ip: string, form: Record<string, string> = {}) {
  return fetch(`${server.url}${url}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-forwarded-for": ip,
      "sec-fetch-site": "same-origin",
    },
    body: new URLSearchParams(form).toString(),
  });
}

let addresses = 0;
const newAddress = () => `198.19.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

/** `/login`, `/login.data`, `/%6Cogin`, `/%6Cogin.data`, `/LOGIN/`. */
function spellings(form: string): string[] {
  const encoded = `/%${form.charCodeAt(1).toString(16).toUpperCase()}${form.slice(2)}`;
  return [form, `${form}.data`, encoded, `${encoded}.data`, `${form.toUpperCase()}/`];
}

let first: Server | undefined;
let second: Server | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  rmSync(folder, { recursive: true, force: true });
  // Two servers on one database, the first with two processes: every count must be shared.
  first = await startServer({ WEB_CONCURRENCY: "2", BODY_LIMIT_PUBLIC: "64KiB" });
  second = await startServer();
});

test.afterAll(async () => {
  await Promise.all([stopServer(first), stopServer(second)]);
});

test("the limit holds on every public form's plain, .data and encoded URLs, across servers", async () => {
  for (const form of PUBLIC_FORMS) {
    for (const [index, spelling] of spellings(form).entries()) {
      const ip = newAddress();
      const statuses: number[] = [];
      // The other spellings, through both servers, use up the limit; then this one is refused.
      const others = spellings(form).filter((other) => other !== spelling);
      for (let i = 0; i < LIMIT; i++)
        statuses.push(
          (await post(i % 2 ? second! : first!, others[i % others.length]!, ip)).status,
        );
      const refused = await post(index % 2 ? first! : second!, spelling, ip);
      expect(statuses, `${spelling}: within the limit`).not.toContain(429);
      expect(Math.max(...statuses), spelling).toBeLessThan(500);
      expect(refused.status, spelling).toBe(429);
      expect(await refused.text()).toBe("Too many requests. Please wait a minute and try again.");
    }
  }
});

test("no more contact messages are stored than the limit, however they are posted", async () => {
  const ip = newAddress();
  const email = `flood-${Date.now()}@example.com`;
  const statuses: number[] = [];
  for (let n = 0; n < LIMIT + 4; n++) {
    const url = ["/contact.data", "/contact", "/%63ontact", "/contact.data?index"][n % 4]!;
    const response = await post(n % 2 ? first! : second!, url, ip, {
      name: "Flood",
      email,
      subject: `Message ${n}`,
      message: "Hello",
    });
    statuses.push(response.status);
  }
  expect(statuses.filter((status) => status === 429)).toHaveLength(4);
  const db = new Database(databaseFile, { readonly: true });
  try {
    const row = db
      .prepare("select count(*) as n from contact_messages where email = ?")
      .get(email) as { n: number };
    expect(row.n).toBe(LIMIT);
  } finally {
    db.close();
  }
});

test("a streamed body is cut at the limit: 413, and the server stops reading", async () => {
  const { port } = new URL(first!.url);
  const socket = net.connect(Number(port), "127.0.0.1");
  await once(socket, "connect");
  socket.write(
    "POST /contact.data HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: same-origin\r\n" +
      "Transfer-Encoding: chunked\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n",
  );
  let answer = "";
  let closed = false;
  socket.on("data", (data: Buffer) => (answer += data.toString()));
  socket.on("close", () => (closed = true));
  socket.on("error", () => (closed = true));
  const chunk = Buffer.alloc(64 * 1024, "a");
  const frame = Buffer.concat([
    Buffer.from(`${chunk.length.toString(16)}\r\n`),
    chunk,
    Buffer.from("\r\n"),
  ]);
  // 150 MiB, the reported body, as fast as the server takes it.
  const planned = 150 * 1024 ** 2;
  let sent = 0;
  for (const started = Date.now(); !closed && sent < planned && Date.now() - started < 20_000;) {
    if (!socket.write(frame))
      await new Promise((resolve) => {
        socket.once("drain", resolve);
        socket.once("close", resolve);
        setTimeout(resolve, 100);
      });
    sent += frame.length;
  }
  for (let i = 0; !closed && i < 100; i++) await new Promise((r) => setTimeout(r, 20));
  socket.destroy();
  expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  expect(answer).toContain("This request is too large and was refused.");
  expect(closed).toBe(true);
  // Only what the kernel's socket buffers took before the server closed: a few MiB, not 150.
  expect(sent).toBeLessThan(32 * 1024 ** 2);
});

test("a body declared too large is refused before it is sent", async () => {
  const { port } = new URL(second!.url);
  const socket = net.connect(Number(port), "127.0.0.1");
  await once(socket, "connect");
  socket.write(
    `POST /register.data HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: same-origin\r\n` +
      `Content-Length: ${150 * 1024 ** 2}\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n`,
  );
  let answer = "";
  socket.on("data", (data: Buffer) => (answer += data.toString()));
  socket.on("error", () => {});
  await Promise.race([once(socket, "close"), new Promise((r) => setTimeout(r, 5000))]);
  socket.destroy();
  expect(answer).toMatch(/^HTTP\/1\.1 413 /);
});

test("X-Forwarded-For counts only from a proxy TRUST_PROXY names", async () => {
  // The servers above trust loopback (the default): each forwarded address has its own count.
  for (let i = 0; i < LIMIT + 2; i++)
    expect((await post(first!, "/newsletter.data", newAddress())).status).not.toBe(429);
  // This one trusts no proxy: every post from here is 127.0.0.1's, whatever it forwards.
  const untrusting = await startServer({ TRUST_PROXY: "none" });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++)
      statuses.push((await post(untrusting, "/newsletter.data", newAddress())).status);
    expect(statuses.slice(LIMIT)).toEqual([429, 429]);
  } finally {
    await stopServer(untrusting);
  }
});

test("a wrong limit or proxy setting stops the server with a message naming it", async () => {
  for (const [name, value] of [
    ["TRUST_PROXY", "cloudflare"],
    ["BODY_LIMIT_PUBLIC", "lots"],
    ["FORM_RATE_LIMIT_PER_MINUTE", "0"],
  ] as const) {
    const failure = await startServer({ [name]: value }).then(
      async (server) => (await server.stop(), null),
      (error: unknown) => error,
    );
    expect(failure, name).toBeInstanceOf(ServerStopped);
    const { exitCode, stderr } = failure as ServerStopped;
    expect(exitCode, name).toBe(1);
    expect(stderr).toContain(`${name}:`);
    expect(stderr).not.toMatch(/\n\s+at /);
  }
});
