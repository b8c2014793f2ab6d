/**
 * npm run bench:payments — do online payments get credited exactly once when their notifications all
 * come at once, and does the webhook answer fast enough while they do (docs/online-payments.md)? For each
 * database (SQLite with the app's own pragmas, and PostgreSQL on a durable throwaway cluster when its
 * binaries are there):
 *
 * 1. The production server from the build on a fresh database, which it prepares at boot (migrations,
 *    seed, the first admin), WEB_CONCURRENCY one per core, with its background worker process (production's
 *    settings: WORKER_POLL_MS 1 s, WORKER_CONCURRENCY 2). The YouCan Pay double (tests/support/
 *    fake-youcanpay.ts) runs in this process; the provider is saved pointing at it (saveProviderSettings,
 *    with the setting payments.allowLocalNetwork on, as an admin would for a trial) and the seeded
 *    `youcanpay` method enabled. The worker's confirming job asks the double (GET /api/transactions/{id}).
 * 2. CHECKOUTS customers (200), and as many for the diagnostic (6), registered through the domain (createCustomers, no coins), each starting a
 *    checkout through the domain (startOnlinePayment: the real YouCan Pay client tokenizes at the double),
 *    and the double "pays" each (its Pay button). The double has no webhook address, so each payment's
 *    `transaction.paid` event is kept, signed, unsent.
 * 3. A warm-up: WARM_UP other customers (20) go the same way and their notifications are sent one after
 *    the other, so the server's processes have handled notifications before (checked like the others, not
 *    judged: their median is printed as the time of a notification that waits for no other).
 *    One customer in RETURN_FIRST_EVERY (10) then comes back from the payment page before its
 *    notification is sent (askConfirmation with the transaction id in the return address, as the return
 *    page's loader does), and the benchmark waits until the worker has credited those.
 * 4. The burst: every notification is POSTed at the same moment to the server's real webhook
 *    (`POST /hooks/payments/youcanpay`, the double's own body and signature), one in TWICE_EVERY (5) sent
 *    twice: half of those with the second copy at the same moment, half right after the first's answer.
 *    Each request is timed from send to the answer's last byte.
 * 5. The round waits until every payment is `paid`, its request `approved`, and no confirming job waits
 *    or runs (or none can move any more, or at ROUND_LIMIT_S).
 * 6. A diagnostic, not judged: CHECKOUTS other paid checkouts' notifications sent evenly spaced at
 *    PACED_RATE (200/s, the rate the orders' p95 is judged at), each timed from when it was due; then
 *    the wait as in 5. It tells the webhook's own time from the burst's queue.
 *
 * Checked (payments-checks.ts): each top-up credited once (one ledger entry under `top-up:<request id>`,
 * no other credit of the customer), of its coins, each balance equal to its credit, one receipt each,
 * each payment's notification kept once and `applied`, each payment's answers one `queued` and the rest
 * `duplicate`, no dead job, and the ledger check (npm run check:ledger's functions). Budgets (verdict
 * table, exit code 1 when one is missed) are written in docs/performance.md with why.
 *
 * `--quick` makes 20 checkouts (its figures measure nothing); BENCH_PAYMENTS_CHECKOUTS changes the count
 * (the budgets are for 200); --sqlite-only skips PostgreSQL. Builds the app first (`--reuse-build` keeps
 * the benchmark's last build).
 */
import { openSync, readSync, statSync, closeSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { AppServices } from "../../app/context.server";
import { findLedgerDiscrepancies } from "../../app/domain/coins/coins.server";
import { findInvoiceDiscrepancies } from "../../app/domain/invoices/reconciliation.server";
import {
  askConfirmation,
  startOnlinePayment,
} from "../../app/domain/payments/online-checkout.server";
import { CONFIRM_JOB } from "../../app/domain/payments/online-payments";
import { installedProviders } from "../../app/domain/payments/online-providers.server";
import {
  listPaymentMethodsForAdmin,
  updatePaymentMethod,
} from "../../app/domain/payments/payment-methods.server";
import { saveProviderSettings } from "../../app/domain/payments/providers/provider-settings.server";
import { updateSettingsSection } from "../../app/domain/settings/settings.server";
import { startFakeYouCanPay, type FakeYouCanPay } from "../../tests/support/fake-youcanpay";
import {
  describeDurability,
  durabilitySettings,
  findPostgresBin,
  freePort,
  isDurable,
  startPostgresCluster,
} from "../../tests/support/postgres-cluster";
import { describeCpu, probeCpu } from "./cpu-probe";
import { probeCommitLatency } from "./disk-probe";
import {
  BENCH_SECRET,
  below,
  benchServices,
  createCustomers,
  ensureBuild,
  none,
  passes,
  percentile,
  printTable,
  QUICK,
  reportVerdicts,
  SERVER_PROCESSES,
  startServer,
  type BenchCustomer,
  type RunningServer,
  type Verdict,
} from "./lib";
import {
  checkPaymentsOutcome,
  describeOutcome,
  topUpKey,
  type CheckedCheckout,
  type PaymentsOutcome,
} from "./payments-checks";

const CHECKOUTS = QUICK ? 20 : Number(process.env.BENCH_PAYMENTS_CHECKOUTS ?? 200);
const WARM_UP = QUICK ? 4 : 20;
/** The diagnostic's rate: the orders' budget is judged at 200 evenly spaced requests a second. */
const PACED_RATE = 200;
const TWICE_EVERY = 5;
const RETURN_FIRST_EVERY = 10;
/** Generous: past this a round stops and what is not credited counts as errors. */
const ROUND_LIMIT_S = 300;
/** How long the customers who came back first may wait for their credit before the burst. */
const RETURN_WAIT_S = 120;

/** Budgets (docs/performance.md, "Online payments", says why these). */
const WEBHOOK_P95_MS = 50;
const CREDITED_BUDGET_S = 120;

const WEBHOOK_PATH = "/hooks/payments/youcanpay";
const fmt = (n: number) => n.toLocaleString("en-US");
const round1 = (n: number) => Math.round(n * 10) / 10;
const verdicts: Verdict[] = [];

interface Checkout extends CheckedCheckout {
  transactionId: string;
  body: string;
  signature: string;
  returnFirst: boolean;
  twice: "no" | "together" | "after";
}

interface Sent {
  paymentId: number;
  ms: number;
  status: number | null;
  outcome: string | null;
  copy: 1 | 2;
}

interface Round {
  database: string;
  checkouts: number;
  notifications: number;
  /** The burst's requests, timed from send to the answer's last byte. */
  sent: Sent[];
  /** The warm-up's (checked, not measured). */
  warmSent: Sent[];
  /** Other checkouts' notifications sent at PACED_RATE, each timed from when it was due. */
  pacedSent: Sent[];
  /** The server's own time for each (its request log's responseTime, whole ms). */
  serverMs: number[];
  /** CPU of the server processes (not the worker's) over the burst, in ms. */
  webCpuMs: number | null;
  /** CPU of the background worker process over the burst and the credits, in ms. */
  workerCpuMs: number | null;
  burstS: number;
  /** From the first notification sent to the last payment seen `paid` (NaN when not all were). */
  lastCreditS: number;
  /** From the first notification sent to no confirming job left. */
  settledS: number;
  returnsCreditedS: number;
  confirmJobs: { count: number; attempts: number };
  deadJobs: string[];
  ledgerProblems: string[];
  outcome: PaymentsOutcome | null;
  errors: string[];
}

// ---------------------------------------------------------------------------------------------------
// The server's processes, for telling the web processes' CPU from the worker's

/** Fields of /proc/<pid>/stat after the command name, or null when the process is gone. */
function stat(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/**
 * CPU ms of the cluster's web processes and of its background worker (the child with the lowest
 * priority: server/index.ts renices it by 10, so it stays apart when the benchmark itself is niced),
 * from /proc; null where /proc cannot tell.
 */
function serverCpu(server: RunningServer): { web: number | null; worker: number | null } {
  const children = server
    .workerPids()
    .map((pid) => stat(pid))
    .filter((fields): fields is string[] => fields !== null)
    .map((fields) => ({
      nice: Number(fields[16]),
      ms: (Number(fields[11]) + Number(fields[12])) * 10,
    }));
  if (children.length < 2) return { web: null, worker: null };
  const lowest = Math.max(...children.map((child) => child.nice));
  const workers = children.filter((child) => child.nice === lowest);
  if (workers.length !== 1) return { web: null, worker: null };
  const sum = (list: typeof children) => list.reduce((total, child) => total + child.ms, 0);
  return { web: sum(children.filter((child) => child.nice !== lowest)), worker: sum(workers) };
}

/** The server log's webhook lines written from byte `from` on: their responseTime. */
function webhookTimesSince(logFile: string, from: number): number[] {
  const size = statSync(logFile).size;
  const buffer = Buffer.alloc(size - from);
  const fd = openSync(logFile, "r");
  readSync(fd, buffer, 0, buffer.length, from);
  closeSync(fd);
  const times: number[] = [];
  for (const line of buffer.toString("utf8").split("\n")) {
    if (!line.includes(WEBHOOK_PATH)) continue;
    try {
      const entry = JSON.parse(line) as { req?: { url?: string }; responseTime?: number };
      if (entry.req?.url === WEBHOOK_PATH && typeof entry.responseTime === "number")
        times.push(entry.responseTime);
    } catch {
      // not a JSON line
    }
  }
  return times;
}

// ---------------------------------------------------------------------------------------------------
// Setting up

async function configureYouCanPay(services: AppServices, fake: FakeYouCanPay): Promise<number> {
  const { db } = services;
  const admin = await db
    .selectFrom("users")
    .select("id")
    .where("role", "=", "admin")
    .executeTakeFirstOrThrow();
  // The double is on 127.0.0.1, which the providers' rules refuse unless this setting is on.
  await updateSettingsSection(db, "payments", { allowLocalNetwork: true });
  const saved = await saveProviderSettings(
    db,
    {
      provider: "youcanpay",
      mode: "sandbox",
      apiUrl: fake.apiUrl,
      publicId: fake.publicKey,
      secret: fake.privateKey,
      webhookId: "",
      actorId: admin.id,
    },
    { secret: BENCH_SECRET },
  );
  if (!saved.ok) throw new Error(`YouCan Pay's settings were refused: ${saved.error}`);
  const method = (await listPaymentMethodsForAdmin(db)).find((each) => each.code === "youcanpay");
  if (!method) throw new Error("no seeded youcanpay method");
  // The seeded method's rate (11.00 MAD a coin), opened from 5 to 200 coins without fee.
  const updated = await updatePaymentMethod(db, {
    actorId: admin.id,
    id: method.id,
    method: {
      ...method,
      enabled: true,
      rate: 1100,
      minCoins: 5,
      maxCoins: 200,
      feeFixed: 0,
      feePercentBp: 0,
    },
  });
  if (!updated.ok) throw new Error(`the youcanpay method could not be enabled: ${updated.error}`);
  return method.id;
}

/** A customer's checkout started and paid at the double, its notification kept unsent. */
async function paidCheckout(
  services: AppServices,
  fake: FakeYouCanPay,
  server: RunningServer,
  methodId: number,
  customer: BenchCustomer,
  i: number,
): Promise<Checkout> {
  const coins = 5 + (i % 20);
  const started = await startOnlinePayment(
    services.db,
    {
      userId: customer.userId,
      methodId,
      coins,
      origin: server.url,
      customerIp: "203.0.113.9",
      locale: "en",
    },
    { providers: installedProviders(), secret: BENCH_SECRET, requireVerifiedEmail: false },
  );
  if (!started.ok) throw new Error(`checkout ${i}: ${started.error}`);
  const row = await services.db
    .selectFrom("online_payments")
    .select(["provider_ref", "top_up_request_id"])
    .where("id", "=", started.paymentId)
    .executeTakeFirstOrThrow();
  const { transaction } = await fake.pay(row.provider_ref!);
  const delivery = fake.deliveries.findLast(
    (each) => each.eventName === "transaction.paid" && each.body.includes(transaction.id),
  );
  if (!delivery || delivery.status !== null)
    throw new Error(`checkout ${i}: the double's notification was not kept unsent`);
  return {
    paymentId: started.paymentId,
    requestId: Number(row.top_up_request_id),
    userId: customer.userId,
    coins,
    startingCents: 0,
    transactionId: transaction.id,
    body: delivery.body,
    signature: delivery.signature,
    returnFirst: i % RETURN_FIRST_EVERY === 0,
    twice: i % TWICE_EVERY !== 1 ? "no" : i % (TWICE_EVERY * 2) === 1 ? "together" : "after",
  };
}

/** One notification POSTed as YouCan Pay sends it, timed from send to the answer's last byte. */
async function post(server: RunningServer, checkout: Checkout, copy: 1 | 2): Promise<Sent> {
  const started = performance.now();
  let status: number | null = null;
  let outcome: string | null = null;
  try {
    const response = await fetch(`${server.url}${WEBHOOK_PATH}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-youcanpay-signature": checkout.signature,
      },
      body: checkout.body,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    status = response.status;
    try {
      outcome = (JSON.parse(text) as { outcome?: string }).outcome ?? null;
    } catch {
      outcome = null;
    }
  } catch {
    // No answer (a connection error or the timeout): status stays null, an error.
  }
  return { paymentId: checkout.paymentId, ms: performance.now() - started, status, outcome, copy };
}

/** Every copy of a checkout's notification: a twice-sent one's second copy at once or after the first. */
async function sendAll(server: RunningServer, checkout: Checkout): Promise<Sent[]> {
  if (checkout.twice === "together")
    return Promise.all([post(server, checkout, 1), post(server, checkout, 2)]);
  const first = await post(server, checkout, 1);
  return checkout.twice === "after" ? [first, await post(server, checkout, 2)] : [first];
}

/** One notification each, evenly spaced at PACED_RATE (an open loop), timed from when each was due. */
async function sendPaced(server: RunningServer, checkouts: Checkout[]): Promise<Sent[]> {
  const start = performance.now();
  return Promise.all(
    checkouts.map(async (checkout, i) => {
      const due = start + (i * 1000) / PACED_RATE;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const sent = await post(server, checkout, 1);
      return { ...sent, ms: performance.now() - due };
    }),
  );
}

/**
 * Waits until every payment of `ids` is paid and no confirming job waits or runs (or none can before
 * the limit, or ROUND_LIMIT_S has passed): the seconds from `started` to the last payment seen paid
 * (NaN when not all were) and to the end.
 */
async function settle(services: AppServices, ids: number[], started: number, label: string) {
  const deadline = new Date(Date.now() + ROUND_LIMIT_S * 1000).toISOString();
  const settled = { lastCreditS: NaN, settledS: NaN, errors: [] as string[] };
  let lastPrint = performance.now();
  for (;;) {
    const now = performance.now();
    const paid = await paidCount(services, ids);
    if (paid === ids.length && Number.isNaN(settled.lastCreditS))
      settled.lastCreditS = (now - started) / 1000;
    const movable = await movableConfirmations(services, deadline);
    if (movable === 0) {
      settled.settledS = (now - started) / 1000;
      if (paid < ids.length)
        settled.errors.push(
          `stopped at ${round1((now - started) / 1000)} s with ${ids.length - paid} not paid: no confirmation can run before the limit`,
        );
      break;
    }
    if ((now - started) / 1000 > ROUND_LIMIT_S) {
      settled.errors.push(`not all credited and settled within ${ROUND_LIMIT_S} s`);
      break;
    }
    if (now - lastPrint > 10_000) {
      lastPrint = now;
      console.log(
        `${label}: ${round1((now - started) / 1000)} s, ${paid} of ${ids.length} paid, ${movable} confirmations left`,
      );
    }
    await sleep(50);
  }
  return settled;
}

async function paidCount(services: AppServices, paymentIds: number[]): Promise<number> {
  const row = await services.db
    .selectFrom("online_payments")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("id", "in", paymentIds.length ? paymentIds : [0])
    .where("state", "=", "paid")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Confirming jobs that wait or run, or may still run before `deadline` after a failure. */
async function movableConfirmations(services: AppServices, deadline: string): Promise<number> {
  const row = await services.db
    .selectFrom("jobs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("type", "=", CONFIRM_JOB)
    .where((eb) =>
      eb.or([
        eb("state", "=", "running"),
        eb.and([eb("state", "in", ["queued", "failed"]), eb("run_at", "<=", deadline)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Waits until every payment of `ids` is paid, polling; the seconds it took, or NaN at `limitS`. */
async function waitForCredits(services: AppServices, ids: number[], limitS: number) {
  const started = performance.now();
  while ((performance.now() - started) / 1000 < limitS) {
    if ((await paidCount(services, ids)) === ids.length)
      return (performance.now() - started) / 1000;
    await sleep(100);
  }
  return NaN;
}

// ---------------------------------------------------------------------------------------------------
// One round

async function runRound(database: string, databaseUrl: string): Promise<Round> {
  const result: Round = {
    database,
    checkouts: CHECKOUTS,
    notifications: 0,
    sent: [],
    warmSent: [],
    pacedSent: [],
    serverMs: [],
    webCpuMs: null,
    workerCpuMs: null,
    burstS: NaN,
    lastCreditS: NaN,
    settledS: NaN,
    returnsCreditedS: NaN,
    confirmJobs: { count: 0, attempts: 0 },
    deadJobs: [],
    ledgerProblems: [],
    outcome: null,
    errors: [],
  };
  const port = await freePort();
  const server = await startServer({ port, databaseUrl });
  console.log(`${database}: the server logs at info into ${server.logFile}`);
  const services = benchServices(databaseUrl);
  const fake = await startFakeYouCanPay();
  try {
    const methodId = await configureYouCanPay(services, fake);
    const setUpStarted = performance.now();
    const customers = await createCustomers(services, WARM_UP + 2 * CHECKOUTS, 0);
    const warmCheckouts: Checkout[] = [];
    const checkouts: Checkout[] = [];
    const pacedCheckouts: Checkout[] = [];
    for (const [i, customer] of customers.entries()) {
      const checkout = await paidCheckout(services, fake, server, methodId, customer, i);
      const alone = { ...checkout, returnFirst: false, twice: "no" as const };
      if (i < WARM_UP) warmCheckouts.push(alone);
      else if (i < WARM_UP + CHECKOUTS) checkouts.push(checkout);
      else pacedCheckouts.push(alone);
    }
    console.log(
      `${database}: ${fmt(customers.length)} customers and paid checkouts in ${round1((performance.now() - setUpStarted) / 1000)} s`,
    );

    // The warm-up: notifications one after the other, then their credits.
    for (const checkout of warmCheckouts) result.warmSent.push(await post(server, checkout, 1));
    const warmS = await waitForCredits(
      services,
      warmCheckouts.map((each) => each.paymentId),
      RETURN_WAIT_S,
    );
    if (Number.isNaN(warmS)) result.errors.push("the warm-up's payments were not credited");
    // The customers who come back before their notification.
    const returning = checkouts.filter((each) => each.returnFirst);
    for (const checkout of returning) {
      const asked = await askConfirmation(services.db, {
        userId: checkout.userId,
        paymentId: checkout.paymentId,
        captureHint: checkout.transactionId,
      });
      if (!asked.ok) result.errors.push(`return of payment ${checkout.paymentId}: ${asked.error}`);
    }
    result.returnsCreditedS = await waitForCredits(
      services,
      returning.map((each) => each.paymentId),
      RETURN_WAIT_S,
    );
    console.log(
      `${database}: warm-up credited in ${round1(warmS)} s; ${returning.length} returns before their notification credited in ${round1(result.returnsCreditedS)} s`,
    );
    if (Number.isNaN(result.returnsCreditedS))
      result.errors.push("the returns before their notification were not credited");

    // The burst.
    const ids = checkouts.map((each) => each.paymentId);
    const logFrom = statSync(server.logFile).size;
    const cpuBefore = serverCpu(server);
    const started = performance.now();
    const sent = (await Promise.all(checkouts.map((checkout) => sendAll(server, checkout)))).flat();
    result.burstS = (performance.now() - started) / 1000;
    const cpuAfterBurst = serverCpu(server);
    result.sent = sent;
    result.notifications = sent.length;
    console.log(
      `${database}: ${fmt(sent.length)} notifications answered in ${round1(result.burstS)} s; waiting for the credits...`,
    );
    const settled = await settle(services, ids, started, database);
    result.lastCreditS = settled.lastCreditS;
    result.settledS = settled.settledS;
    result.errors.push(...settled.errors);
    const cpuAfter = serverCpu(server);
    if (cpuBefore.web !== null && cpuAfterBurst.web !== null)
      result.webCpuMs = cpuAfterBurst.web - cpuBefore.web;
    if (cpuBefore.worker !== null && cpuAfter.worker !== null)
      result.workerCpuMs = cpuAfter.worker - cpuBefore.worker;
    result.serverMs = webhookTimesSince(server.logFile, logFrom);

    // The same notifications evenly spaced, as other writes are judged (a diagnostic, not a verdict).
    const pacedStarted = performance.now();
    result.pacedSent = await sendPaced(server, pacedCheckouts);
    console.log(
      `${database}: ${fmt(pacedCheckouts.length)} notifications at ${PACED_RATE}/s answered in ${round1((performance.now() - pacedStarted) / 1000)} s`,
    );
    const pacedSettled = await settle(
      services,
      pacedCheckouts.map((each) => each.paymentId),
      pacedStarted,
      `${database} paced`,
    );
    result.errors.push(...pacedSettled.errors);
    server.assertRunning();

    // The checks.
    const all = [...warmCheckouts, ...checkouts, ...pacedCheckouts];
    const allIds = all.map((each) => each.paymentId);
    const userIds = all.map((each) => each.userId);
    const { db } = services;
    const payments = await db
      .selectFrom("online_payments")
      .select(["id", "state"])
      .where("id", "in", allIds)
      .execute();
    const requests = await db
      .selectFrom("top_up_requests")
      .select(["id", "state"])
      .where(
        "id",
        "in",
        all.map((each) => each.requestId),
      )
      .execute();
    const credits = await db
      .selectFrom("coin_ledger")
      .select(["user_id", "idempotency_key", "amount_cents"])
      .where("user_id", "in", userIds)
      .where("kind", "=", "coin_purchase")
      .execute();
    const balances = await db
      .selectFrom("users")
      .select(["id", "coin_balance_cents"])
      .where("id", "in", userIds)
      .execute();
    const receipts = await db
      .selectFrom("invoices")
      .innerJoin("coin_ledger", "coin_ledger.id", "invoices.ledger_entry_id")
      .select("coin_ledger.idempotency_key")
      .where("invoices.kind", "=", "receipt")
      .where(
        "coin_ledger.idempotency_key",
        "in",
        all.map((each) => topUpKey(each.requestId)),
      )
      .execute();
    const notifications = await db
      .selectFrom("provider_notifications")
      .select(["online_payment_id", "outcome"])
      .where("online_payment_id", "in", allIds)
      .execute();
    result.outcome = checkPaymentsOutcome({
      checkouts: all,
      paymentStates: new Map(payments.map((row) => [Number(row.id), row.state])),
      requestStates: new Map(requests.map((row) => [Number(row.id), row.state])),
      credits: credits.map((row) => ({
        userId: row.user_id,
        key: row.idempotency_key,
        amountCents: Number(row.amount_cents),
      })),
      balances: new Map(balances.map((row) => [row.id, Number(row.coin_balance_cents)])),
      receipts: receipts.map((row) => ({ key: row.idempotency_key })),
      notifications: notifications.map((row) => ({
        paymentId: row.online_payment_id === null ? null : Number(row.online_payment_id),
        outcome: row.outcome,
      })),
      answers: [...result.warmSent, ...result.sent, ...result.pacedSent].map((each) => ({
        paymentId: each.paymentId,
        status: each.status,
        outcome: each.outcome,
      })),
    });
    const ledger = await findLedgerDiscrepancies(db);
    const documents = await findInvoiceDiscrepancies(db);
    result.ledgerProblems = [
      ...ledger.map((d) => `${d.email}: balance ${d.balanceCents}, ledger sum ${d.ledgerSumCents}`),
      ...documents.map((d) => `${d.number}: ${d.problem}`),
    ];
    const jobs = await db
      .selectFrom("jobs")
      .select(["attempts"])
      .where("type", "=", CONFIRM_JOB)
      .execute();
    result.confirmJobs = {
      count: jobs.length,
      attempts: jobs.reduce((sum, job) => sum + Number(job.attempts), 0),
    };
    result.deadJobs = (
      await db
        .selectFrom("jobs")
        .select(["type", "last_error"])
        .where("state", "=", "dead")
        .execute()
    ).map((job) => `${job.type}: ${(job.last_error ?? "").split("\n")[0]}`);
  } catch (error) {
    result.errors.push(`round failed: ${(error as Error).stack ?? error}`);
  } finally {
    await services.database.destroy();
    await server.stop();
    await fake.close();
  }
  summarize(result);
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Reporting

const burstTimes = (round: Round) => round.sent.map((each) => each.ms).sort((a, b) => a - b);

function roundErrors(round: Round): string[] {
  return [
    ...round.errors,
    ...(round.outcome ? describeOutcome(round.outcome) : []),
    ...round.deadJobs.map((job) => `dead job ${job}`),
  ];
}

/** The outcome's failures other than those with a verdict row of their own. */
function otherErrors(round: Round): string[] {
  const outcome = round.outcome;
  if (!outcome) return roundErrors(round);
  return [
    ...round.errors,
    ...describeOutcome({
      ...outcome,
      doubleCredits: [],
      notCredited: [],
      webhookErrors: 0,
      notificationsWrong: [],
    }),
  ];
}

function summarize(round: Round) {
  const times = burstTimes(round);
  const server = [...round.serverMs].sort((a, b) => a - b);
  const errors = roundErrors(round);
  console.log(
    `${round.database}: webhook p50 ${round1(percentile(times, 0.5))}, p95 ${round1(percentile(times, 0.95))}, max ${round1(times.at(-1) ?? NaN)} ms (the server's own p95 ${percentile(server, 0.95)} ms); all credited ${round1(round.lastCreditS)} s after the first notification; ${errors.length} error(s)${errors.length ? `: ${errors.join(" | ")}` : ""}`,
  );
}

function judge(round: Round) {
  const db = round.database;
  const outcome = round.outcome;
  const times = burstTimes(round);
  verdicts.push(
    none(
      `${db}: double credits`,
      outcome ? outcome.doubleCredits.length : NaN,
      outcome?.doubleCredits.slice(0, 5).join(", "),
    ),
    passes(
      `${db}: the ledger check`,
      round.outcome !== null && round.ledgerProblems.length === 0,
      round.ledgerProblems.length
        ? `${round.ledgerProblems.length} problems (${round.ledgerProblems.slice(0, 3).join("; ")})`
        : round.outcome
          ? "passed"
          : "not run",
    ),
    none(
      `${db}: payments not credited`,
      outcome ? outcome.notCredited.length : NaN,
      outcome?.notCredited.slice(0, 5).join(", "),
    ),
    none(`${db}: webhook errors (not 2xx)`, outcome ? outcome.webhookErrors : NaN),
    below(
      `${db}: webhook p95, ${fmt(round.notifications)} notifications at once`,
      percentile(times, 0.95),
      WEBHOOK_P95_MS,
      " ms",
    ),
    none(
      `${db}: notifications not kept once and applied`,
      outcome ? outcome.notificationsWrong.length : NaN,
      outcome?.notificationsWrong.slice(0, 5).join(", "),
    ),
    none(`${db}: dead jobs`, round.deadJobs.length, round.deadJobs.slice(0, 3).join("; ")),
    none(
      `${db}: other errors (amounts, balances, receipts, the webhook's answers, the run)`,
      otherErrors(round).length,
      otherErrors(round).join("; "),
    ),
    below(
      `${db}: every payment credited, from the first notification`,
      round.lastCreditS,
      CREDITED_BUDGET_S,
      " s",
    ),
  );
}

ensureBuild();
const cpuBefore = probeCpu();
console.log(describeCpu("before the run", cpuBefore));
const rounds: Round[] = [];
const sqlite = await runRound("sqlite", "file:./.tmp/bench-payments/hostfront.db");
rounds.push(sqlite);
judge(sqlite);
if (process.argv.includes("--sqlite-only")) {
  console.log("--sqlite-only: skipping the PostgreSQL run.");
} else if (findPostgresBin()) {
  const cluster = await startPostgresCluster({ durable: true });
  try {
    const settings = await durabilitySettings(cluster.url);
    console.log(`PostgreSQL: ${describeDurability(settings)}`);
    verdicts.push(
      passes("postgres: commits durable", isDurable(settings), describeDurability(settings)),
    );
    const postgres = await runRound("postgres", cluster.url);
    rounds.push(postgres);
    judge(postgres);
  } finally {
    cluster.stop();
  }
} else {
  console.log("PostgreSQL server binaries not found: skipping the PostgreSQL run.");
  verdicts.push(passes("postgres: run", false, "skipped: no PostgreSQL binaries"));
}
const cpuAfter = probeCpu();
// Beside the benchmark's own files, on the disk the SQLite run uses: each SQLite commit waits for it.
const disk = probeCommitLatency({ dir: ".tmp", commits: QUICK ? 200 : 2000 });

printTable(
  `Online payments benchmark: ${fmt(CHECKOUTS)} checkouts paid at the YouCan Pay double, their notifications sent at once (1 in ${TWICE_EVERY} twice), 1 in ${RETURN_FIRST_EVERY} customers back first; ${SERVER_PROCESSES} server processes and the worker, on ${availableParallelism()} cores`,
  rounds.map((r) => {
    const times = burstTimes(r);
    const server = [...r.serverMs].sort((a, b) => a - b);
    return {
      database: r.database,
      notifications: r.notifications,
      "webhook p50 / p95 / max ms": `${round1(percentile(times, 0.5))} / ${round1(percentile(times, 0.95))} / ${round1(times.at(-1) ?? NaN)}`,
      "the server's own p50 / p95 / max ms": `${percentile(server, 0.5)} / ${percentile(server, 0.95)} / ${server.at(-1) ?? NaN}`,
      "one at a time p50 ms": round1(
        percentile(
          r.warmSent.map((each) => each.ms).sort((a, b) => a - b),
          0.5,
        ),
      ),
      "burst answered s": round1(r.burstS),
      [`at ${PACED_RATE}/s p50 / p95 ms`]: (() => {
        const paced = r.pacedSent.map((each) => each.ms).sort((a, b) => a - b);
        return `${round1(percentile(paced, 0.5))} / ${round1(percentile(paced, 0.95))}`;
      })(),
      "web CPU ms a notification":
        r.webCpuMs === null ? "n/a" : round1(r.webCpuMs / r.notifications),
      "all credited s": round1(r.lastCreditS),
      "settled s": round1(r.settledS),
      "worker CPU ms a payment":
        r.workerCpuMs === null ? "n/a" : round1(r.workerCpuMs / r.checkouts),
      "confirm jobs / attempts": `${r.confirmJobs.count} / ${r.confirmJobs.attempts}`,
      errors: roundErrors(r).length,
    };
  }),
);
console.log(describeCpu("before the run", cpuBefore));
console.log(describeCpu("after the run", cpuAfter));
console.log(
  `Disk: a durable SQLite commit (WAL, synchronous=FULL) waits p50 ${disk.p50} ms, p99 ${disk.p99} ms, max ${disk.max} ms over ${disk.commits} commits.`,
);
reportVerdicts(
  `online payments benchmark${QUICK ? ` (--quick: ${CHECKOUTS} checkouts, not a measure)` : ""} (copy these rows into docs/performance.md)`,
  verdicts,
);
process.exit(process.exitCode ?? 0);
