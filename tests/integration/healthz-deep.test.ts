import { beforeAll, expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import { claimJobs, enqueueJob, failJob } from "~/domain/jobs/jobs.server";
import { startWorker } from "~/domain/jobs/runner.server";
import { bearerMatches, healthAnswer } from "../../server/health";
import { registeredCustomer, signedInCookie } from "../support/account-fixtures";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

const TOKEN = "monitor-token-0123456789";

// /healthz stays as it was; ?deep=1 adds the worker's heartbeat and dead jobs, for an admin or the
// monitor's HEALTHZ_TOKEN only.
describeEachDatabase(
  "/healthz?deep=1",
  (app) => {
    let adminCookie: string;
    let customerCookie: string;

    beforeAll(async () => {
      adminCookie = await signedInCookie(app(), TEST_ADMIN, { ip: "10.62.0.1" });
      const customer = {
        name: "Health",
        email: `health-${Date.now()}@example.com`,
        password: "Tangerine-Viaduct-73",
      };
      await registeredCustomer(app(), customer);
      customerCookie = await signedInCookie(app(), customer, { ip: "10.62.0.2" });
    });

    const ask = (request: { deep?: boolean; cookie?: string; authorization?: string }) =>
      healthAnswer(app(), {
        deep: request.deep ?? true,
        cookie: request.cookie ?? null,
        authorization: request.authorization,
      });

    it("answers the plain check as before, and refuses deep to anyone else", async () => {
      expect(await ask({ deep: false })).toEqual({ status: 200, body: { status: "ok" } });
      expect(await ask({})).toEqual({ status: 403, body: { status: "ok", deep: "refused" } });
      expect(await ask({ cookie: customerCookie })).toMatchObject({ status: 403 });
      expect(await ask({ authorization: "Bearer wrong-token-0123456789" })).toMatchObject({
        status: 403,
      });
    });

    it("reports the worker's heartbeat and the dead jobs to an admin and to the token", async () => {
      const db = app().db;
      const before = await ask({ cookie: adminCookie });
      expect(before).toMatchObject({
        status: 200,
        body: { status: "ok", worker: { workers: 0, lastHeartbeat: null, deadJobs: 0 } },
      });
      await inTransaction(db, (trx) => enqueueJob(trx, { type: "health.broken", maxAttempts: 1 }));
      // By type: the admin's sign-in queued its notice mail (a mail.send job) before this one.
      const claimed = await claimJobs(db, {
        owner: "h",
        limit: 10,
        leaseMs: 1000,
        now: new Date(),
      });
      const job = claimed.find((row) => row.type === "health.broken");
      await failJob(db, { job: job!, owner: "h", error: "down", now: new Date(), backoffMs: 10 });
      const worker = startWorker(
        {
          db,
          handlers: {},
          schedules: [],
          config: { leaseMs: 1000, pollMs: 10, backoffMs: 10, concurrency: 1 },
          timeZone: async () => "UTC",
        },
        { autoStart: false },
      );
      await worker.tick();
      const after = await ask({ authorization: `Bearer ${TOKEN}` });
      expect(after).toMatchObject({ status: 200, body: { worker: { workers: 1, deadJobs: 1 } } });
      const { lastHeartbeat } = after.body.worker as { lastHeartbeat: string };
      expect(Date.now() - new Date(lastHeartbeat).getTime()).toBeLessThan(60_000);
      await worker.stop(100);
      expect(await ask({ cookie: adminCookie })).toMatchObject({
        body: { worker: { workers: 0 } },
      });
    });
  },
  { env: { HEALTHZ_TOKEN: TOKEN } },
);

it("compares the bearer token exactly", () => {
  expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
  expect(bearerMatches(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
  expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
  expect(bearerMatches(`Bearer ${TOKEN}`, undefined)).toBe(false);
});
