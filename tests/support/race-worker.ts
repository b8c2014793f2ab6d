/**
 * A server process of its own, for the cross-process race tests (tests/support/race-workers.ts starts
 * it with child_process.fork): it opens the database at the URL in argv[2] exactly as a server process
 * does (createServices: on SQLite the file in WAL mode with a read and a write connection, BEGIN
 * IMMEDIATE; on PostgreSQL a pool of its own) and calls the real domain functions.
 *
 * The parent drives it by IPC messages:
 *   { type: "arm", jobs }   → it opens its connections, then answers { type: "armed" };
 *   { type: "go" }          → (sent to every worker at once, once all are armed) it starts every job at
 *                             once and answers { type: "done", results, sentAt, answeredAt }, two
 *                             moments on the machine's monotonic clock (process-moments.ts);
 *   { type: "exit" }        → it closes the database and exits.
 * A job that throws is reported as { thrown: message }, never hidden.
 */
import { createServices } from "~/context.server";
import { signIn } from "~/domain/accounts/accounts.server";
import { adjustCoins } from "~/domain/coins/coins.server";
import { renewService } from "~/domain/hosting-services/renewal.server";
import type { OrderFormInput } from "~/domain/orders/orders";
import { placeOrder } from "~/domain/orders/orders.server";
import { parseEnv } from "~/config/env.server";
import { inTransaction } from "~/db/transaction";
import { issueDocument } from "~/domain/invoices/issuing.server";
import { processMoment } from "./process-moments";

export type RaceJob =
  | { op: "placeOrder"; userId: string; input: OrderFormInput }
  | { op: "renewService"; userId: string; serviceId: number; idempotencyKey: string }
  | {
      op: "adjustCoins";
      userId: string;
      actorId: string;
      amountCents: number;
      idempotencyKey: string;
    }
  | { op: "signIn"; email: string; password: string; ip: string }
  /** A document of 0 coins numbered in its own transaction, dated in `year` (docs/invoices.md). */
  | { op: "issueDocument"; userId: string; year: number };

/** What a job came to: the domain's answer, cut to what the tests compare, or what it threw. */
export type RaceResult =
  | { ok: true; id?: number; duplicate?: boolean }
  | { ok: false; error: string }
  | { thrown: string };

export type ToWorker = { type: "arm"; jobs: RaceJob[] } | { type: "go" } | { type: "exit" };
export type FromWorker =
  { type: "armed" } | { type: "done"; results: RaceResult[]; sentAt: string; answeredAt: string };

const url = process.argv[2];
if (!url) throw new Error("race-worker: no database URL");
const services = createServices({
  ...parseEnv({ NODE_ENV: "test", DATABASE_URL: url, LOG_LEVEL: "silent" }),
  AUTH_SECRET: "test-secret-0123456789abcdef0123456789abcdef",
});

async function run(job: RaceJob): Promise<RaceResult> {
  switch (job.op) {
    case "placeOrder": {
      const result = await placeOrder(services.db, job.userId, job.input);
      return result.ok
        ? { ok: true, id: result.order.id, duplicate: result.duplicate }
        : { ok: false, error: result.error };
    }
    case "renewService": {
      const result = await renewService(services.db, job);
      return result.ok
        ? { ok: true, id: result.service.id, duplicate: result.duplicate }
        : { ok: false, error: result.error };
    }
    case "adjustCoins": {
      const result = await adjustCoins(services.db, { ...job, reason: "cross-process race" });
      return result.ok ? { ok: true, duplicate: result.duplicate ?? false } : result;
    }
    case "issueDocument": {
      const issued = await inTransaction(services.db, (trx) =>
        issueDocument(trx, {
          kind: "receipt",
          userId: job.userId,
          amounts: {
            pricesIncludeVat: true,
            vatRateBp: 0,
            subtotalCents: 0,
            vatCents: 0,
            totalCents: 0,
          },
          seller: { name: "Hostfront", address: "", taxId: "" },
          buyer: { name: "Racer", email: "racer@example.com", address: "", country: "" },
          lines: [],
          timeZone: "UTC",
          now: new Date(`${job.year}-06-01T00:00:00Z`),
        }),
      );
      return { ok: true, id: issued.id };
    }
    case "signIn": {
      const result = await signIn(
        services,
        { email: job.email, password: job.password },
        { ip: job.ip },
      );
      return result.ok ? { ok: true } : { ok: false, error: result.error };
    }
  }
}

let jobs: RaceJob[] = [];
const send = (message: FromWorker) => process.send!(message);

process.on("message", (message: ToWorker) => {
  void (async () => {
    if (message.type === "arm") {
      jobs = message.jobs;
      // Opened before the start, so the race is between the jobs and not between connections: a read (on
      // SQLite the read connection) and a write transaction (the write connection).
      await services.db.selectFrom("users").select("id").limit(1).execute();
      await services.db.transaction().execute(async (trx) => {
        await trx.selectFrom("settings").select("key").limit(1).execute();
      });
      send({ type: "armed" });
    } else if (message.type === "go") {
      const sentAt = processMoment();
      const results = await Promise.all(
        jobs.map((job) =>
          run(job).catch((error: unknown): RaceResult => ({ thrown: String(error) })),
        ),
      );
      send({ type: "done", results, sentAt, answeredAt: processMoment() });
    } else {
      await services.database.destroy();
      process.disconnect?.();
      process.exit(0);
    }
  })().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});
