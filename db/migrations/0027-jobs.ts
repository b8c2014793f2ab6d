import type { ColumnDefinitionBuilder, Kysely } from "kysely";
import { sql } from "kysely";
import { columnTypes } from "./column-types";

// The background worker's tables (issue 24, ADR 27): durable jobs, the state of each recurring schedule,
// and the log of the runs staff read on /admin/automation.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();

  await db.schema
    .createTable("jobs")
    .addColumn("id", t.autoId, id)
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull().defaultTo("{}"))
    // queued, running, succeeded, failed (waiting for its next attempt at run_at) or dead.
    .addColumn("state", "text", (c) => c.notNull().defaultTo("queued"))
    .addColumn("run_at", t.timestamp, (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull().defaultTo(5))
    .addColumn("unique_key", "text")
    // The schedule that queued it (or whose "Run now" did): its runs are written to job_runs.
    .addColumn("schedule", "text")
    .addColumn("last_error", "text")
    .addColumn("lease_owner", "text")
    .addColumn("lease_until", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addColumn("finished_at", t.timestamp)
    .execute();
  // A claim reads the jobs that may run now, oldest first.
  await db.schema.createIndex("jobs_claim_idx").on("jobs").columns(["state", "run_at"]).execute();
  // The same job is never queued twice while one is waiting or running; once it has ended, its key is
  // free again (a schedule's slot is guarded by job_schedules as well).
  await sql`create unique index jobs_unique_key_idx on jobs (unique_key) where state in ('queued', 'running', 'failed')`.execute(
    db,
  );

  await db.schema
    .createTable("job_schedules")
    .addColumn("id", t.autoId, id)
    .addColumn("name", "text", (c) => c.notNull().unique())
    // The slot the next run is due at; a process that finds it past queues one run and moves it on.
    .addColumn("next_run_at", t.timestamp, (c) => c.notNull())
    .addColumn("last_slot_at", t.timestamp)
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("job_runs")
    .addColumn("id", t.autoId, id)
    .addColumn("job_id", "integer", (c) => c.references("jobs.id").onDelete("set null"))
    .addColumn("schedule", "text", (c) => c.notNull())
    .addColumn("job_type", "text", (c) => c.notNull())
    .addColumn("attempt", "integer", (c) => c.notNull())
    // running, succeeded or failed.
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("counts", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("error", "text")
    .addColumn("started_at", t.timestamp, (c) => c.notNull())
    .addColumn("finished_at", t.timestamp)
    .execute();
  await db.schema
    .createIndex("job_runs_started_idx")
    .on("job_runs")
    .columns(["started_at"])
    .execute();
  await db.schema
    .createIndex("job_runs_schedule_idx")
    .on("job_runs")
    .columns(["schedule", "started_at"])
    .execute();

  // Each worker process's heartbeat (/healthz?deep=1): short-lived, so not copied by migrate-to-postgres.
  await db.schema
    .createTable("job_workers")
    .addColumn("id", t.autoId, id)
    .addColumn("owner", "text", (c) => c.notNull().unique())
    .addColumn("started_at", t.timestamp, (c) => c.notNull())
    .addColumn("beat_at", t.timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("job_workers").execute();
  await db.schema.dropTable("job_runs").execute();
  await db.schema.dropTable("job_schedules").execute();
  await db.schema.dropTable("jobs").execute();
}
