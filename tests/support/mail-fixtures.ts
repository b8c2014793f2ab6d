import { afterAll, beforeAll, beforeEach } from "vitest";
import type { AppServices } from "~/context.server";
import { startWorker, type WorkerOptions } from "~/domain/jobs/runner.server";
import { MAIL_SEND_JOB } from "~/domain/mail/mail-sender.server";
import { mailHandler } from "../../server/mail";
import { startSmtpServer, type TestSmtpServer } from "./smtp-server";

/**
 * A test SMTP server for the suite it is called in: started before its first test, closed after its
 * last and emptied before each one. Read it through the getter, which only works once the suite runs.
 */
export function suiteSmtpServer(): () => TestSmtpServer {
  let smtp: TestSmtpServer | undefined;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp?.close();
  });
  beforeEach(() => {
    smtp?.reset();
  });
  return () => {
    if (!smtp) throw new Error("the suite's SMTP server is not started");
    return smtp;
  };
}

/**
 * `rounds` rounds of a worker that only sends mail, through `smtpUrl` (none: the mail is kept), then
 * stops it: a round claims as many jobs as its concurrency, so a few work every due one.
 */
export async function sendDueMail(
  app: AppServices,
  mail: { smtpUrl: string | undefined; from: string },
  options: { rounds: number } & Pick<WorkerOptions, "now" | "onProblem">,
): Promise<void> {
  const { rounds, ...clock } = options;
  const worker = startWorker(
    {
      db: app.db,
      handlers: {
        [MAIL_SEND_JOB]: mailHandler(app, { SMTP_URL: mail.smtpUrl, MAIL_FROM: mail.from }),
      },
      schedules: [],
      config: { leaseMs: 10_000, pollMs: 10, backoffMs: 1000, concurrency: 4 },
      timeZone: async () => "UTC",
      ...clock,
    },
    { autoStart: false },
  );
  for (let round = 0; round < rounds; round++) {
    await worker.tick();
    await worker.idle();
  }
  await worker.stop(100);
}

/** The messages the staff were queued about an order (one per active admin). */
export function staffMailOfOrder(app: AppServices, orderId: number) {
  return app.db
    .selectFrom("mail_outbox")
    .select(["id", "kind"])
    .where("unique_key", "like", `staffOrderWaiting:order:${orderId}:%`)
    .execute();
}
