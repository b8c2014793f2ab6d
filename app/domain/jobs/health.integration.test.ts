import { beforeEach, expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { workerHealth } from "./health.server";

const NOW = new Date("2026-11-24T10:00:00.000Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

describeEachDatabase("the worker's health, as /healthz?deep=1 reports it", (app) => {
  beforeEach(async () => {
    await app().db.deleteFrom("jobs").execute();
    await app().db.deleteFrom("job_workers").execute();
  });

  it("counts the processes that beat lately, gives the newest beat, and the jobs waiting and dead", async () => {
    const db = app().db;
    await db
      .insertInto("job_workers")
      .values([
        { owner: "gone", started_at: ago(3_600_000), beat_at: ago(3_600_000) },
        { owner: "alive", started_at: ago(3_600_000), beat_at: ago(1000) },
      ])
      .execute();
    const job = (state: string) => ({
      type: "t.health",
      state,
      run_at: ago(0),
      created_at: ago(0),
      updated_at: ago(0),
    });
    await db
      .insertInto("jobs")
      .values(
        ["queued", "queued", "failed", "dead", "running", "succeeded"].map((state) => job(state)),
      )
      .execute();
    expect(await workerHealth(db, NOW)).toEqual({
      lastHeartbeat: ago(1000),
      workers: 1,
      deadJobs: 1,
      // A failed job waits for its next attempt: it is queued too.
      queuedJobs: 3,
    });
  });
});
