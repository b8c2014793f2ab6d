/**
 * npm run bench:web — Lighthouse (mobile, simulated throttling, median of 3 runs) on the public pages of a
 * production build, next to a static copy of each page served from disk: the same HTML and CSS with no
 * JavaScript, the limit we measure against. Prints score, LCP, TBT, CLS and the JavaScript and CSS each
 * page loads (gzip), the ratio LCP(app)/LCP(static), and PASS/OVER per budget. Loopback only; stops by
 * itself.
 *
 * Then the signed-in pages: a customer with history and the bench admin are signed in, and each
 * of SIGNED_IN_PAGES is measured with a cold cache (Lighthouse sends the session cookie as a header, so its
 * storage reset leaves the visitor signed in). Printed per page: JS (gzip) and script files, LCP, TBT and
 * score against the signed-in budgets, the scripts written into the page (React Router's hydration data
 * and the page's catalogues, data more than code) on their own, and the page's script files by size, so a
 * regression names the chunk that grew. Each table gives the host's CPU index of each Lighthouse run
 * (scripts/bench/cpu-probe.ts): TBT moves with it. Last, a browser opens the first signed-in page and follows a link
 * to a second one as a customer would: the script that second page adds is measured against its budget.
 *
 * BENCH_WEB_PAGES=dashboard,order (names of PAGES and SIGNED_IN_PAGES) measures only those pages, for
 * looking into one figure; it is not an official run.
 *
 * BENCH_LIGHTHOUSE_RUNS sets the runs per page (default 3), BENCH_PORT a first port to use instead of free
 * ones, CHROME_PATH the browser (default /usr/bin/chromium). The median runs' full reports are written to
 * .tmp/bench-web/<page>-<app|static>.json.
 */
import { get } from "node:http";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { Server } from "node:http";
import express from "express";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "@playwright/test";
import { listActiveProducts } from "../../app/domain/catalogue/catalogue.server";
import { responseCompression } from "../../server/response-compression";
import { freePort } from "../../tests/support/postgres-cluster";
import {
  BENCH_BUILD,
  BENCH_CUSTOMER_PASSWORD,
  benchServices,
  createCustomers,
  giveHistory,
  signInCookie,
  atMost,
  benchPorts,
  ensureBuild,
  printTable,
  QUICK,
  reportVerdicts,
  startServer,
  type Verdict,
  warmUp,
  withoutJavaScript,
} from "./lib";
import { describeCpu, probeCpu, summariseCpu } from "./cpu-probe";
import { afterLogin, INP_CPU_SLOWDOWN, measureInp } from "./web-interactions";

// --quick: one Lighthouse run per page and target, to prove the script works.
const RUNS = QUICK ? 1 : Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const PAGES = [
  { name: "home", path: "/" },
  { name: "samp", path: "/services/samp" },
  { name: "login", path: "/login" },
] as const;
const BUDGET = { score: 95, lcpRatio: 1.2, jsKiB: 100 };
// What a signed-in customer's or admin's first page may load (WHMCS's client area ships 184 KiB), and
// what a second one may add.
const ONLY = process.env.BENCH_WEB_PAGES?.split(",");
const chosen = <T extends { name: string }>(pages: readonly T[]) =>
  ONLY ? pages.filter((page) => ONLY.includes(page.name)) : pages;
const SIGNED_IN_BUDGET = {
  score: 90,
  tbtMs: 150,
  cls: 0.1,
  jsKiB: 180,
  scripts: 15,
  nextPageKiB: 30,
  afterLoginKiB: 40,
  inpMs: 200,
};
// Each interaction of the INP budget is measured on this many freshly loaded pages; the median counts.
const INP_RUNS = QUICK ? 1 : 5;
type Who = "customer" | "admin";
const SIGNED_IN_PAGES: {
  name: string;
  path: string | ((productId: number) => string);
  who: Who;
}[] = [
  { name: "dashboard", path: "/dashboard", who: "customer" },
  { name: "dashboard-billing", path: "/dashboard/billing", who: "customer" },
  { name: "order", path: (productId) => `/order?product=${productId}`, who: "customer" },
  { name: "support-new", path: "/support/new", who: "customer" },
  { name: "admin-clients", path: "/admin/clients", who: "admin" },
];
// A first page and the link a person follows from it to a second one (client-side navigation).
const NEXT_PAGES: { from: string; link: string; who: Who }[] = [
  { from: "/dashboard", link: 'a[href="/order"]', who: "customer" },
  { from: "/admin/clients", link: 'a[href="/admin/orders"]', who: "admin" },
];
// The flags the machine notes give for Debian's Chromium; without the networking ones it keeps trying
// hosts it cannot reach, which would show up in the timings.
const CHROME_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const STATIC_DIR = ".tmp/bench-web/static";
const nextPort = benchPorts(freePort);

interface Run {
  lhr: unknown;
  /** The host's CPU index Lighthouse read for this run (`environment.benchmarkIndex`). */
  cpu: number;
  score: number;
  lcp: number;
  tbt: number;
  cls: number;
  scripts: string[];
  stylesheets: string[];
}

/** A minimal static server: the saved pages, and the build's own client files (CSS, icons) from disk. */
async function startStaticServer(port: number): Promise<{ url: string; close: () => void }> {
  const app = express();
  // The app's own compression middleware (pages at brotli 3, the build's files at the defaults), so the
  // comparison is about the pages, not the wire.
  app.use(responseCompression());
  for (const page of chosen(PAGES))
    app.get(page.path, (_req, res) =>
      res.sendFile(path.resolve(STATIC_DIR, `${page.name}.html`), {
        headers: { "content-type": "text/html; charset=utf-8" },
        // The copies live under .tmp/, which send would otherwise refuse as a dot-folder.
        dotfiles: "allow",
      }),
    );
  app.use(express.static(path.join(BENCH_BUILD, "client")));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(port, "127.0.0.1", () => resolve(s));
  });
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

/** Bytes of the body as the server sends it when the browser accepts gzip (headers not counted). */
function gzipBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { "accept-encoding": "gzip" } }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.length));
      res.on("end", () => resolve(bytes));
      res.on("error", reject);
    }).on("error", reject);
  });
}

async function sumGzip(urls: string[]): Promise<number> {
  let total = 0;
  for (const url of new Set(urls)) total += await gzipBytes(url);
  return total;
}

async function lighthouseRun(url: string, port: number, cookie?: string): Promise<Run> {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance"],
    formFactor: "mobile",
    throttlingMethod: "simulate",
    // A header, not a stored cookie: Lighthouse clears the browser's storage before each run (the cold
    // cache we want) and would sign the visitor out with it.
    ...(cookie ? { extraHeaders: { cookie } } : {}),
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const requests = (lhr.audits["network-requests"]?.details as
    { items: { url: string; resourceType?: string }[] } | undefined) ?? { items: [] };
  const ofType = (type: string) =>
    requests.items.filter((item) => item.resourceType === type).map((item) => item.url);
  cpuReadings.push(Math.round(lhr.environment.benchmarkIndex));
  return {
    lhr,
    cpu: lhr.environment.benchmarkIndex,
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcp: audit("largest-contentful-paint"),
    tbt: audit("total-blocking-time"),
    cls: audit("cumulative-layout-shift"),
    scripts: ofType("Script"),
    stylesheets: ofType("Stylesheet"),
  };
}

/** The run with the median LCP (the middle of the runs sorted by LCP, then by score). */
function medianRun(runs: Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.lcp - b.lcp || b.score - a.score);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * Gzip bytes of the scripts written into a page (an anonymous visitor's enhance script, ADR 13): they
 * load no file, so the network records miss them, but they are JavaScript the page carries.
 */
function inlineScriptGzip(html: string): number {
  let total = 0;
  for (const [, code] of html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi))
    if (code!.trim()) total += gzipSync(code!).length;
  return total;
}

/** Gzip bytes of a URL's body as served to a signed-in browser. */
function gzipBytesAs(url: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { "accept-encoding": "gzip", cookie } }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.length));
      res.on("end", () => resolve(bytes));
      res.on("error", reject);
    }).on("error", reject);
  });
}

/** Each script file's gzip size, largest first: the page's composition, so a regression names its chunk. */
async function scriptSizes(urls: string[]): Promise<{ file: string; bytes: number }[]> {
  const sizes = [];
  for (const url of new Set(urls))
    sizes.push({
      file: new URL(url).pathname.replace(/^\/assets\//, ""),
      bytes: await gzipBytes(url),
    });
  return sizes.sort((a, b) => b.bytes - a.bytes);
}

/**
 * The host's CPU index of every Lighthouse run: TBT is the page's main-thread work slowed fourfold, so
 * it moves with the host's speed as much as with the page's code (scripts/bench/cpu-probe.ts).
 */
const cpuReadings: number[] = [];

/** Per page path: the gzip bytes of the scripts written into the app's page. */
const inlineScriptBytes = new Map<string, number>();

/** Lighthouse runs that recorded no trace and were run again (printed with the results). */
let retried = 0;

/**
 * One run; again (at most twice) when Lighthouse recorded no usable trace of the load (NO_NAVSTART,
 * NO_FCP): a failure of the recording, not of the page, seen now and then on this machine. Any other
 * error, or a third failure, stops the benchmark.
 */
async function lighthouseRunWithRetry(url: string, port: number, cookie?: string): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseRun(url, port, cookie);
    } catch (error) {
      if (attempt === 3 || !/\((NO_NAVSTART|NO_FCP)\)/.test(String(error))) throw error;
      retried++;
      console.log(`${url}: ${String(error)}; run again`);
    }
  }
}

async function measure(url: string, chromePort: number, label: string, cookie?: string) {
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await lighthouseRunWithRetry(url, chromePort, cookie));
  const run = medianRun(runs);
  // The whole report of the median run, for looking into a figure (open it in the Lighthouse viewer).
  writeFileSync(path.join(".tmp/bench-web", `${label}.json`), JSON.stringify(run.lhr));
  return {
    ...run,
    jsBytes: await sumGzip(run.scripts),
    cssBytes: await sumGzip(run.stylesheets),
    lcps: runs.map((r) => Math.round(r.lcp)),
    cpus: runs.map((r) => Math.round(r.cpu)),
    tbts: runs.map((r) => Math.round(r.tbt)),
  };
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const verdict = (ok: boolean) => (ok ? "PASS" : "OVER");

ensureBuild();
rmSync(".tmp/bench-web", { recursive: true, force: true });
mkdirSync(STATIC_DIR, { recursive: true });
const BENCH_DATABASE = "file:./.tmp/bench-web/db/hostfront.db";
const app = await startServer({ port: await nextPort(), databaseUrl: BENCH_DATABASE });
let staticServer: { url: string; close: () => void } | undefined;
let chrome: chromeLauncher.LaunchedChrome | undefined;
try {
  for (const page of chosen(PAGES)) {
    const response = await fetch(`${app.url}${page.path}`);
    if (response.status !== 200) throw new Error(`${page.path} answered ${response.status}`);
    const served = await response.text();
    inlineScriptBytes.set(page.path, inlineScriptGzip(served));
    const html = withoutJavaScript(served);
    if (/<script\b/i.test(html)) throw new Error(`${page.path}: a script survived the copy`);
    writeFileSync(path.join(STATIC_DIR, `${page.name}.html`), html);
  }
  // Warm-up, as in the server benchmark: each server process's first requests compile code paths and
  // fill caches (without it the home page's Lighthouse runs met cold processes: 220 ms to the first byte,
  // /login 37 ms), and a visitor meets a server that has been answering for hours. Several connections
  // at once (warmUp, as in the server benchmark): one request after another on one connection reaches
  // one server process only, and Chromium's connections may reach the other.
  for (const page of chosen(PAGES))
    await warmUp(60, () => fetch(`${app.url}${page.path}`).then((r) => r.text()));
  staticServer = await startStaticServer(await nextPort());
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    chromeFlags: CHROME_FLAGS,
  });
  console.log(
    `Lighthouse ${RUNS} run(s) per page, mobile, simulated throttling; ENTRY_GATE=off, so / is the home page itself (not the entry gate).`,
  );
  const rows: Record<string, string | number>[] = [];
  const budgets: Record<string, string | number>[] = [];
  const chromePort = chrome.port;
  const verdicts: Verdict[] = [];
  for (const page of chosen(PAGES)) {
    const measured = await measure(`${app.url}${page.path}`, chrome.port, `${page.name}-app`);
    measured.jsBytes += inlineScriptBytes.get(page.path) ?? 0;
    const limit = await measure(
      `${staticServer.url}${page.path}`,
      chrome.port,
      `${page.name}-static`,
    );
    const ratio = measured.lcp / limit.lcp;
    for (const [target, m] of [
      ["app", measured],
      ["static copy", limit],
    ] as const) {
      rows.push({
        page: page.path,
        target,
        score: m.score,
        "LCP ms": Math.round(m.lcp),
        "TBT ms": Math.round(m.tbt),
        CLS: m.cls.toFixed(3),
        "JS KiB gz": kib(m.jsBytes),
        scripts: m.scripts.length,
        "CSS KiB gz": kib(m.cssBytes),
        "LCP of each run": m.lcps.join(" "),
        "CPU index of each run": m.cpus.join(" "),
      });
    }
    budgets.push({
      page: page.path,
      [`score >= ${BUDGET.score}`]: `${measured.score} ${verdict(measured.score >= BUDGET.score)}`,
      [`LCP ratio <= ${BUDGET.lcpRatio}`]: `${ratio.toFixed(2)} ${verdict(ratio <= BUDGET.lcpRatio)}`,
      [`JS <= ${BUDGET.jsKiB} KiB gz`]: `${kib(measured.jsBytes)} ${verdict(measured.jsBytes <= BUDGET.jsKiB * 1024)}`,
    });
    verdicts.push(
      {
        measure: `${page.path}: Lighthouse score (mobile, median of ${RUNS})`,
        figure: String(measured.score),
        budget: `>= ${BUDGET.score}`,
        met: measured.score >= BUDGET.score,
      },
      atMost(`${page.path}: LCP app / static copy`, Math.round(ratio * 100) / 100, BUDGET.lcpRatio),
      atMost(
        `${page.path}: JavaScript, gzip`,
        Math.round((measured.jsBytes / 1024) * 10) / 10,
        BUDGET.jsKiB,
        " KiB",
      ),
    );
  }
  printTable(
    `Web benchmark: Lighthouse ${RUNS} run(s) per page (the median run by LCP is shown); JS and CSS are the bodies the page loaded, gzip as served, JS with the scripts written into the page (gzip of each alone); "scripts" counts script files`,
    rows,
  );
  printTable("Budgets (WHMCS ships 184 KiB of JavaScript)", budgets);

  // Signed-in pages: a customer with a history (the server benchmark's) and the admin.
  const services = benchServices(BENCH_DATABASE);
  try {
    const [customer] = await createCustomers(services, 1);
    const product = (await listActiveProducts(services.db, "samp"))[0]!;
    await giveHistory(services, customer!, product.id);
    const cookies: Record<Who, string> = {
      customer: customer!.cookie,
      admin: await signInCookie(services),
    };
    const signedRows: Record<string, string | number>[] = [];
    const composition: Record<string, string | number>[] = [];
    for (const page of chosen(SIGNED_IN_PAGES)) {
      const pagePath = typeof page.path === "string" ? page.path : page.path(product.id);
      const url = `${app.url}${pagePath}`;
      const cookie = cookies[page.who];
      const served = await fetch(url, { headers: { cookie }, redirect: "manual" });
      if (served.status !== 200) throw new Error(`${pagePath} answered ${served.status} signed in`);
      const html = await served.text();
      await warmUp(30, () => fetch(url, { headers: { cookie } }).then((r) => r.text()));
      const m = await measure(url, chromePort, `signed-in-${page.name}`, cookie);
      const files = await scriptSizes(m.scripts);
      const jsBytes = files.reduce((sum, f) => sum + f.bytes, 0);
      const inline = inlineScriptGzip(html);
      signedRows.push({
        page: pagePath,
        who: page.who,
        score: m.score,
        "LCP ms": Math.round(m.lcp),
        "TBT ms": Math.round(m.tbt),
        CLS: m.cls.toFixed(3),
        "JS KiB gz": kib(jsBytes),
        scripts: files.length,
        "in page KiB gz": kib(inline),
        "HTML KiB gz": kib(await gzipBytesAs(url, cookie)),
        "CSS KiB gz": kib(m.cssBytes),
        // TBT moves from run to run more than any other figure: each run's, beside its CPU index.
        "TBT ms of each run": m.tbts.join(" "),
        "CPU index of each run": m.cpus.join(" "),
      });
      composition.push({
        page: pagePath,
        "largest script files, KiB gzip": files
          .slice(0, 8)
          .map((f) => `${f.file} ${kib(f.bytes)}`)
          .join(", "),
        "the rest": `${files.length - Math.min(8, files.length)} files, ${kib(files.slice(8).reduce((sum, f) => sum + f.bytes, 0))} KiB`,
      });
      verdicts.push(
        {
          measure: `${pagePath} (${page.who}): Lighthouse score (mobile, median of ${RUNS})`,
          figure: String(m.score),
          budget: `>= ${SIGNED_IN_BUDGET.score}`,
          met: m.score >= SIGNED_IN_BUDGET.score,
        },
        atMost(`${pagePath} (${page.who}): TBT`, Math.round(m.tbt), SIGNED_IN_BUDGET.tbtMs, " ms"),
        atMost(
          `${pagePath} (${page.who}): CLS`,
          Math.round(m.cls * 1000) / 1000,
          SIGNED_IN_BUDGET.cls,
        ),
        atMost(
          `${pagePath} (${page.who}): JavaScript files, gzip`,
          Math.round((jsBytes / 1024) * 10) / 10,
          SIGNED_IN_BUDGET.jsKiB,
          " KiB",
        ),
        atMost(`${pagePath} (${page.who}): script files`, files.length, SIGNED_IN_BUDGET.scripts),
      );
    }
    printTable(
      `Signed-in pages: Lighthouse ${RUNS} run(s) per page, cold cache, mobile; JS and scripts are the script files loaded (gzip as served); "in page" is the gzip of the scripts written into the HTML (React Router's hydration data and the page's catalogues), counted apart`,
      signedRows,
    );
    printTable("What each signed-in page's script is made of", composition);

    const browser = await chromium.launch({
      executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    });
    try {
      const next: Record<string, string | number>[] = [];
      for (const step of ONLY ? [] : NEXT_PAGES) {
        const context = await browser.newContext({
          extraHTTPHeaders: { cookie: cookies[step.who] },
        });
        const tab = await context.newPage();
        const seen: string[] = [];
        tab.on("response", (response) => {
          if (response.request().resourceType() === "script") seen.push(response.url());
        });
        await tab.goto(`${app.url}${step.from}`, { waitUntil: "networkidle" });
        const first = new Set(seen);
        const from = new URL(tab.url()).pathname;
        await tab.locator(step.link).first().click();
        await tab.waitForURL((u) => u.pathname !== from);
        await tab.waitForLoadState("networkidle");
        const added = [...new Set(seen)].filter((u) => !first.has(u));
        const sizes = await scriptSizes(added);
        const bytes = sizes.reduce((sum, f) => sum + f.bytes, 0);
        const to = new URL(tab.url()).pathname;
        next.push({
          from: step.from,
          to,
          "JS added KiB gz": kib(bytes),
          "files added": sizes.length,
          largest: sizes
            .slice(0, 5)
            .map((f) => `${f.file} ${kib(f.bytes)}`)
            .join(", "),
        });
        verdicts.push(
          atMost(
            `${step.from} -> ${to} (${step.who}): JavaScript added, gzip`,
            Math.round((bytes / 1024) * 10) / 10,
            SIGNED_IN_BUDGET.nextPageKiB,
            " KiB",
          ),
        );
        await context.close();
      }
      printTable("A second signed-in page, reached by a link (client-side navigation)", next);

      if (!ONLY) {
        // The usual way in: /login with a cold cache, then the form. /login prefetches the dashboard's
        // scripts while its visitor types.
        const login = await afterLogin(browser, app.url, {
          email: customer!.email,
          password: BENCH_CUSTOMER_PASSWORD,
        });
        printTable("The first signed-in page after /login (the form, a cold cache before /login)", [
          {
            "/login loaded KiB gz (its own and prefetched)": kib(login.loginBytes),
            "first page": login.firstPage,
            "first page then fetched KiB gz": kib(login.firstPageBytes),
          },
        ]);
        verdicts.push(
          atMost(
            `/login -> ${login.firstPage} (customer): JavaScript the first signed-in page fetched after /login, gzip`,
            Math.round((login.firstPageBytes / 1024) * 10) / 10,
            SIGNED_IN_BUDGET.afterLoginKiB,
            " KiB",
          ),
        );

        const cpuBefore = probeCpu();
        const inps = await measureInp(browser, app.url, cookies, INP_RUNS);
        const cpuAfter = probeCpu();
        const inpRows = inps.map(({ step, inps: runs }) => {
          const sorted = [...runs].sort((a, b) => a - b);
          const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
          verdicts.push(
            atMost(
              `${step.path} (${step.who}): INP to ${step.name}, CPU x${INP_CPU_SLOWDOWN} (median of ${runs.length})`,
              median,
              SIGNED_IN_BUDGET.inpMs,
              " ms",
            ),
          );
          return {
            page: step.path,
            interaction: step.name,
            "INP ms (median)": median,
            "INP ms of each run": runs.join(" "),
          };
        });
        printTable(
          `Interaction to next paint, ${INP_RUNS} freshly loaded page(s) each, 412 px, CPU slowed ${INP_CPU_SLOWDOWN}x (Event Timing, 8 ms steps; 0: under 16 ms)`,
          inpRows,
        );
        console.log(describeCpu("before the INP runs", cpuBefore));
        console.log(describeCpu("after the INP runs", cpuAfter));
      }
    } finally {
      await browser.close();
    }
  } finally {
    await services.database.destroy();
  }
  if (retried) console.log(`Lighthouse runs recorded no trace and were run again: ${retried}`);
  console.log(describeCpu("during the Lighthouse runs", summariseCpu(cpuReadings)));
  reportVerdicts(
    `web benchmark${QUICK ? " (--quick: one run per page, not a measure)" : ""} (copy these rows into docs/performance.md)`,
    verdicts,
  );
} finally {
  await chrome?.kill();
  staticServer?.close();
  await app.stop();
}
