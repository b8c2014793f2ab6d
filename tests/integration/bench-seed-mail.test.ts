import { afterEach, describe, expect, it } from "vitest";
import { createServices, prepareDatabase, type AppServices } from "~/context.server";
import { listActiveProducts } from "~/domain/catalogue/catalogue.server";
import { keepMailUnsent } from "~/domain/mail/outbox-mode.server";
import { MAIL_SEND_JOB } from "~/domain/mail/mail-sender.server";
import { benchServices, createCustomers, giveHistory } from "../../scripts/bench/lib";
import { createTestDatabaseUrl, dialects, testEnv } from "../support/test-database";

afterEach(() => keepMailUnsent(false));

async function mailCounts(services: AppServices): Promise<{ messages: number; sendJobs: number }> {
  const messages = await services.db
    .selectFrom("mail_outbox")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const sendJobs = await services.db
    .selectFrom("jobs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("type", "=", MAIL_SEND_JOB)
    .executeTakeFirstOrThrow();
  return { messages: Number(messages.n), sendJobs: Number(sendJobs.n) };
}

// The benchmarks seed from a process that never boots: what it mails must not become work for the
// server's worker during the measured phases, unless the server under test sends mail (SMTP_URL).
describe.each(dialects)("a benchmark's seeding [%s]", (dialect) => {
  it("keeps its mail unsent as a server without SMTP_URL does, and queues send jobs for one with it", async () => {
    const database = await createTestDatabaseUrl(dialect);
    const setup = createServices(testEnv(database.url));
    await prepareDatabase(setup);
    await setup.database.destroy();
    const quiet = benchServices(database.url);
    try {
      const [customer] = await createCustomers(quiet, 1);
      const product = (await listActiveProducts(quiet.db, "samp"))[0]!;
      await giveHistory(quiet, customer!, product.id);
      const kept = await mailCounts(quiet);
      // The history mails the customer and the admin (orders, approvals, replies)...
      expect(kept.messages).toBeGreaterThan(50);
      // ...and none of it is the worker's to write.
      expect(kept.sendJobs).toBe(0);
    } finally {
      await quiet.database.destroy();
    }
    const sending = benchServices(database.url, { mailSent: true });
    try {
      await createCustomers(sending, 1);
      const after = await mailCounts(sending);
      expect(after.messages).toBeGreaterThan(0);
      expect(after.sendJobs).toBeGreaterThan(0);
    } finally {
      await sending.database.destroy();
      await database.drop();
    }
  });
});
