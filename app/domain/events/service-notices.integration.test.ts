import { expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import { customerWithCoins } from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { record, recordAll, type DomainEvent } from "./events.server";

describeEachDatabase("the lifecycle's notices, recorded as events", (app) => {
  const now = new Date("2031-03-10T06:00:00.000Z");
  const service = (userId: string, id: number) => ({
    id,
    userId,
    name: "Minecraft Basic",
    serverName: "Creative world",
  });

  /** The notices and mail the reactions wrote for `userId`, the account's own mail left out. */
  const told = async (userId: string) => ({
    notices: await readRows(app().db, "notifications", ["kind", "params", "link", "dedupe_key"], {
      user_id: userId,
    }),
    mail: (
      await readRows(app().db, "mail_outbox", ["kind", "unique_key", "params"], { user_id: userId })
    ).filter((row) => row.kind.startsWith("service")),
  });

  const recordBatch = (events: DomainEvent[]) =>
    inTransaction(app().db, (trx) => recordAll(trx, events, now));

  it("tells an expiry reminder once by its key, in the list and by mail", async () => {
    const user = await customerWithCoins(app(), 0);
    const reminded: DomainEvent = {
      type: "service.expiryReminded",
      service: service(user, 9101),
      expiresAt: "2031-03-13T06:00:00.000Z",
      days: 3,
    };
    expect(await recordBatch([reminded])).toBe(1);
    expect(await recordBatch([reminded])).toBe(0);
    const { notices, mail } = await told(user);
    expect(notices).toEqual([
      {
        kind: "service_expiry_reminder",
        params: JSON.stringify({ service: "Minecraft Basic (Creative world)", count: 3 }),
        link: "/dashboard/services",
        dedupe_key: "lifecycle:remind:9101:2031-03-13T06:00:00.000Z:3",
      },
    ]);
    expect(mail.map((row) => [row.kind, row.unique_key])).toEqual([
      ["serviceExpiring", `serviceExpiring:service:9101:2031-03-13T06:00:00.000Z:remind:3:${user}`],
    ]);
  });

  it("tells a renewal short of coins once a day, with what renewing costs and when it stops", async () => {
    const user = await customerWithCoins(app(), 0);
    const short: DomainEvent = {
      type: "service.renewalShort",
      service: service(user, 9102),
      expiresAt: "2031-03-09T06:00:00.000Z",
      missingCents: 450,
      at: now.toISOString(),
      renewal: { priceCents: 1000, billingCycle: "monthly", missingCents: 450 },
      suspendsAt: "2031-03-12T06:00:00.000Z",
      terminatesAt: "2031-03-19T06:00:00.000Z",
    };
    expect(await recordBatch([short])).toBe(1);
    expect(await recordBatch([short])).toBe(0);
    const { notices, mail } = await told(user);
    expect(notices).toEqual([
      {
        kind: "service_renewal_short",
        params: JSON.stringify({ service: "Minecraft Basic (Creative world)", amountCents: 450 }),
        link: "/coins",
        dedupe_key: "lifecycle:short:9102:2031-03-09T06:00:00.000Z:2031-03-10",
      },
    ]);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.unique_key).toBe(
      `serviceRenewalShort:service:9102:2031-03-09T06:00:00.000Z:short:2031-03-10:${user}`,
    );
    // It had expired when told, so the message says it ended.
    expect(JSON.parse(mail[0]!.params)).toMatchObject({
      expired: true,
      missingCents: 450,
      priceCents: 1000,
      suspendsAt: "2031-03-12T06:00:00.000Z",
      terminatesAt: "2031-03-19T06:00:00.000Z",
    });
  });

  it("warns of a termination once per suspension", async () => {
    const user = await customerWithCoins(app(), 0);
    const warned: DomainEvent = {
      type: "service.terminationWarned",
      service: service(user, 9103),
      suspendedAt: "2031-03-05T06:00:00.000Z",
      terminatesAt: "2031-03-12T06:00:00.000Z",
      days: 2,
    };
    expect(await recordBatch([warned])).toBe(1);
    expect(await recordBatch([warned])).toBe(0);
    const { notices, mail } = await told(user);
    expect(notices).toEqual([
      {
        kind: "service_termination_warning",
        params: JSON.stringify({ service: "Minecraft Basic (Creative world)", count: 2 }),
        link: "/dashboard/services",
        dedupe_key: "lifecycle:warn:9103:2031-03-05T06:00:00.000Z",
      },
    ]);
    expect(mail.map((row) => [row.kind, row.unique_key])).toEqual([
      [
        "serviceTerminationWarning",
        `serviceTerminationWarning:service:9103:2031-03-05T06:00:00.000Z:warn:${user}`,
      ],
    ]);
  });

  it("writes a batch's notices and mail together, counting only the new ones", async () => {
    const user = await customerWithCoins(app(), 0);
    const reminders = [7, 3, 1].map((days): DomainEvent => ({
      type: "service.expiryReminded",
      service: service(user, 9104),
      expiresAt: "2031-03-17T06:00:00.000Z",
      days,
    }));
    // One of them told alone first, as `record` tells an event: the batch finds it told.
    await inTransaction(app().db, (trx) => record(trx, reminders[1]!, now));
    expect(await recordBatch(reminders)).toBe(2);
    const { notices, mail } = await told(user);
    expect(notices.map((row) => row.dedupe_key).sort()).toEqual([
      "lifecycle:remind:9104:2031-03-17T06:00:00.000Z:1",
      "lifecycle:remind:9104:2031-03-17T06:00:00.000Z:3",
      "lifecycle:remind:9104:2031-03-17T06:00:00.000Z:7",
    ]);
    expect(mail).toHaveLength(3);
  });

  it("writes none of a batch when its transaction rolls back", async () => {
    const user = await customerWithCoins(app(), 0);
    await expect(
      inTransaction(app().db, async (trx) => {
        const told = await recordAll(
          trx,
          [
            {
              type: "service.expiryReminded",
              service: service(user, 9105),
              expiresAt: "2031-03-13T06:00:00.000Z",
              days: 3,
            },
          ],
          now,
        );
        // Told in the transaction, then gone with it.
        expect(told).toBe(1);
        throw new Error("the run failed after its notices");
      }),
    ).rejects.toThrow("the run failed after its notices");
    expect(await told(user)).toEqual({ notices: [], mail: [] });
  });
});
