/**
 * Compares what a person sees on every page between two production builds: a
 * refactoring that should change nothing a user sees is checked by the server's HTML and by the
 * accessibility tree the browser builds once the page has hydrated (or been enhanced), for a visitor, a
 * customer with a history and an admin. Not a CI step: run it once around a refactoring and read the diff.
 *
 *   npm run build                                  # the head build, into build/
 *   git worktree add /tmp/base <rev> && (cd /tmp/base && ln -s /work/main/node_modules && npm run build)
 *   npm run compare:pages -- /tmp/base/build build
 *
 * One database is seeded (through the domain, as the benchmarks do) and copied for each build, so both see
 * the same rows and sessions. Differences that are not a user's are taken out before comparing: nonces,
 * asset file names, the scripts' contents (React Router's manifest and data, whose module names change with
 * any build), the key drawn for each render of a form and the stylesheet written into signed-in pages (compared on its own, as one line). Prints one
 * line per page and identity; the captures and a unified diff of each page that differs are written to
 * .tmp/compare-pages/.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { parseEnv } from "../app/config/env.server";
import { createServices } from "../app/context.server";
import { listActiveProducts } from "../app/domain/catalogue/catalogue.server";
import { freePort } from "../tests/support/postgres-cluster";
import { BENCH_SECRET, createCustomers, giveHistory, signInCookie, startServer } from "./bench/lib";

const [baseBuild, headBuild] = process.argv.slice(2);
if (!baseBuild || !headBuild) {
  console.error("usage: compare-pages.ts <base build dir> <head build dir>");
  process.exit(2);
}
const OUT = ".tmp/compare-pages";
rmSync(OUT, { recursive: true, force: true });
mkdirSync(`${OUT}/db`, { recursive: true });
const SEED_DB = `${OUT}/db/seed.db`;

type Who = "visitor" | "customer" | "admin";
interface Ids {
  productId: number;
  ticketId: number;
  invoiceNumber: string;
  clientId: string;
  serviceId: number;
  adminTicketId: number;
}

// Every page of app/routes.ts that renders for one of the three, with ids from the seeded rows.
function pages(ids: Ids): [Who, string][] {
  const visitor = [
    "/",
    "/services/samp",
    "/services/mta",
    "/services/vps",
    "/game-hosting",
    "/about",
    "/contact",
    "/service-terms",
    "/privacy",
    "/orange-money",
    "/phpmyadmin",
    "/bot-detected",
    "/verification-failed",
    "/login",
    "/register",
    "/forgot-password",
    "/reset-password",
    "/no-such-page",
  ];
  const customer = [
    "/",
    "/services/samp",
    "/contact",
    "/dashboard",
    "/dashboard?tab=services",
    "/dashboard?tab=billing",
    "/dashboard?tab=support",
    "/dashboard?tab=account",
    "/dashboard?tab=notifications",
    "/dashboard/top-up",
    "/coins",
    `/order?product=${ids.productId}`,
    "/support/new",
    `/support/${ids.ticketId}`,
    `/invoices/${ids.invoiceNumber}`,
    "/account/password",
    "/no-such-page",
  ];
  const admin = [
    "/admin",
    "/admin/orders",
    "/admin/services",
    `/admin/services/${ids.serviceId}/panel`,
    "/admin/clients",
    `/admin/clients/${ids.clientId}`,
    "/admin/clients?q=bench",
    "/admin/tickets",
    `/admin/tickets/${ids.adminTicketId}`,
    "/admin/announcements",
    "/admin/users",
    "/admin/logs",
    "/admin/transactions",
    "/admin/invoices",
    "/admin/settings",
    "/admin/settings/game-panel",
    "/admin/security",
    "/admin/automation",
    "/admin/mail",
    "/admin/reports",
    "/admin/contact-messages",
    "/admin/newsletter",
    "/admin/products",
    "/admin/products?type=vps",
    "/admin/products?edit=new",
    `/admin/products?edit=${ids.productId}`,
    "/admin/promotions",
    "/admin/promotions?edit=new",
    "/admin/gateways",
    "/admin/gateways?edit=new",
    "/admin/gateways?edit=1",
    "/admin/top-ups",
    "/admin/search?q=bench",
    "/admin/notifications",
  ];
  return [
    ...visitor.map((p): [Who, string] => ["visitor", p]),
    ...customer.map((p): [Who, string] => ["customer", p]),
    ...admin.map((p): [Who, string] => ["admin", p]),
  ];
}

// What differs between two builds of the same page without a person seeing it.
function normalise(html: string): { html: string; style: string } {
  let style = "";
  const out = html
    .replace(/<style\b[^>]*>([\s\S]*?)<\/style>/g, (_, css: string) => {
      style += css;
      return "<style>[stylesheet]</style>";
    })
    .replace(
      /<script\b([^>]*)>[\s\S]*?<\/script>/g,
      (_, attrs: string) => `<script${attrs}>…</script>`,
    )
    .replace(/nonce="[^"]*"/g, 'nonce="…"')
    // A form's key is drawn afresh for every render (a resent form is recognised by it).
    .replace(/(name="idempotencyKey" value=")[^"]*"/g, '$1…"')
    .replace(/\/assets\/[\w.-]+?-[\w-]{8}\.(js|css|svg|woff2?)/g, "/assets/…")
    .replace(/<link rel="modulepreload"[^>]*>/g, "")
    .replace(/></g, ">\n<");
  return { html: out, style };
}

async function seed(): Promise<{ ids: Ids; cookies: Record<Who, string> }> {
  const port = await freePort();
  const app = await startServer({
    port,
    databaseUrl: `file:${SEED_DB}`,
    keepDatabase: true,
    buildDir: headBuild!,
    env: { WEB_CONCURRENCY: "1" },
  });
  const services = createServices({
    ...parseEnv({ DATABASE_URL: `file:${SEED_DB}` }),
    AUTH_SECRET: BENCH_SECRET,
  });
  try {
    const [customer] = await createCustomers(services, 1);
    const product = (await listActiveProducts(services.db, "samp"))[0]!;
    await giveHistory(services, customer!, product.id);
    const db = services.db;
    const ticket = await db
      .selectFrom("tickets")
      .select("id")
      .where("user_id", "=", customer!.userId)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const invoice = await db
      .selectFrom("invoices")
      .select("number")
      .where("user_id", "=", customer!.userId)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const service = await db
      .selectFrom("hosting_services")
      .select("id")
      .where("user_id", "=", customer!.userId)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    return {
      ids: {
        productId: product.id,
        ticketId: ticket.id,
        invoiceNumber: invoice.number,
        clientId: customer!.userId,
        serviceId: service.id,
        adminTicketId: ticket.id,
      },
      cookies: { visitor: "", customer: customer!.cookie, admin: await signInCookie(services) },
    };
  } finally {
    await services.database.destroy();
    await app.stop();
  }
}

interface Capture {
  status: number;
  /** Where the page ended up, after any redirect. */
  address: string;
  html: string;
  style: string;
  tree: string;
}

async function capture(
  buildDir: string,
  name: string,
  list: [Who, string][],
  cookies: Record<Who, string>,
): Promise<Map<string, Capture>> {
  const dbFile = `${OUT}/db/${name}.db`;
  copyFileSync(SEED_DB, dbFile);
  for (const suffix of ["-wal", "-shm"])
    if (existsSync(SEED_DB + suffix)) copyFileSync(SEED_DB + suffix, dbFile + suffix);
  const port = await freePort();
  const app = await startServer({
    port,
    databaseUrl: `file:${dbFile}`,
    keepDatabase: true,
    buildDir,
    env: { WEB_CONCURRENCY: "1", PUBLIC_URL: "http://127.0.0.1:1" },
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-background-networking"],
  });
  const captures = new Map<string, Capture>();
  try {
    for (const [who, pagePath] of list) {
      const headers: Record<string, string> = { "accept-language": "en" };
      if (cookies[who]) headers.cookie = cookies[who];
      // A page that moved is followed, as the browser follows it: what is compared is where it leads
      // (the dashboard's ?tab= addresses now redirect to each tab's route), and that address too.
      const response = await fetch(app.url + pagePath, { headers });
      const address = new URL(response.url).pathname + new URL(response.url).search;
      const { html, style } = normalise(await response.text());
      // The session in the browser's cookie jar, not a header of every request: a header set by hand is
      // not sent again when the browser follows a redirect (a ?tab= address's, to its tab's route).
      const context = await browser.newContext({
        extraHTTPHeaders: { "accept-language": headers["accept-language"]! },
      });
      await context.addCookies(
        (cookies[who] ? cookies[who].split(/;\s*/) : []).map((pair) => {
          const at = pair.indexOf("=");
          return { name: pair.slice(0, at), value: pair.slice(at + 1), url: app.url };
        }),
      );
      const page = await context.newPage();
      await page.goto(app.url + pagePath);
      await page
        .waitForFunction(
          () =>
            document.documentElement.hasAttribute("data-hydrated") ||
            document.documentElement.hasAttribute("data-enhanced"),
          undefined,
          { timeout: 15_000 },
        )
        .catch(() => undefined);
      const tree = await page.locator("body").ariaSnapshot();
      await context.close();
      captures.set(`${who} ${pagePath}`, { status: response.status, address, html, style, tree });
      const file = `${OUT}/${name}/${who}${pagePath.replace(/[/?=&]/g, "_")}`;
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(`${file}.html`, html);
      writeFileSync(`${file}.aria.yml`, tree);
    }
  } finally {
    await browser.close();
    await app.stop();
  }
  return captures;
}

const { ids, cookies } = await seed();
const list = pages(ids);
const base = await capture(baseBuild, "base", list, cookies);
const head = await capture(headBuild, "head", list, cookies);
let differing = 0;
for (const [key, before] of base) {
  const after = head.get(key)!;
  const what = [
    before.status !== after.status ? `status ${before.status} -> ${after.status}` : "",
    before.address !== after.address ? `address ${before.address} -> ${after.address}` : "",
    before.html !== after.html ? "HTML" : "",
    before.tree !== after.tree ? "accessibility tree" : "",
    before.style !== after.style ? "stylesheet" : "",
  ].filter(Boolean);
  if (what.length) differing++;
  console.log(
    `${what.length ? "DIFFERS" : "same   "} ${key} (${after.status})${what.length ? ": " + what.join(", ") : ""}`,
  );
  if (what.length) {
    const file = `${OUT}/diff-${key.replace(/[ /?=&]/g, "_")}.txt`;
    const files = (side: string) =>
      `${OUT}/${side}/${key.split(" ")[0]}${key.split(" ")[1]!.replace(/[/?=&]/g, "_")}`;
    const diff = spawnSync("diff", ["-u", `${files("base")}.html`, `${files("head")}.html`], {
      encoding: "utf8",
    }).stdout;
    const treeDiff = spawnSync(
      "diff",
      ["-u", `${files("base")}.aria.yml`, `${files("head")}.aria.yml`],
      { encoding: "utf8" },
    ).stdout;
    writeFileSync(file, diff + treeDiff);
  }
}
console.log(`\n${list.length} pages compared, ${differing} differ (diffs in ${OUT}/diff-*.txt)`);
