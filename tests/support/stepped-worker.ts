import { startWorker, type WorkerOptions } from "~/domain/jobs/runner.server";

/**
 * The real job worker as tests drive it: it never starts its own loop (a test calls `tick()` and
 * `idle()`), runs no schedule unless given one, and reads the site's time zone as UTC.
 */
export function steppedWorker(
  options: Omit<WorkerOptions, "schedules" | "timeZone"> & Partial<WorkerOptions>,
) {
  return startWorker(
    { schedules: [], timeZone: async () => "UTC", ...options },
    { autoStart: false },
  );
}
