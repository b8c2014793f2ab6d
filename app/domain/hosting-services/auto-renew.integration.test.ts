import { beforeEach, expect, it, vi } from "vitest";
import type { Tx } from "~/db/transaction";
import { asAdmin, customerWithRunningService } from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import type * as autoRenew from "./auto-renew.server";
import { switchAutoRenew } from "./auto-renew.server";
import { deleteService } from "./admin-changes.server";
import { setAutoRenew } from "./customer-services.server";

// The real step, with a way in before it: a test runs there what another request commits between
// setAutoRenew's read of the service and the step's update (current-password.integration.test.ts
// wraps a step the same way).
vi.mock("./auto-renew.server", async (importOriginal) => {
  const real = await importOriginal<typeof autoRenew>();
  return { ...real, switchAutoRenew: vi.fn(real.switchAutoRenew) };
});
const step = vi.mocked(switchAutoRenew);
const { switchAutoRenew: realStep } =
  await vi.importActual<typeof autoRenew>("./auto-renew.server");

/** The next setAutoRenew runs `meanwhile` after its read of the service, just before the step's update. */
function beforeTheUpdate(meanwhile: (trx: Tx, serviceId: number) => Promise<unknown>) {
  step.mockImplementationOnce(async (trx, input) => {
    await meanwhile(trx, input.serviceId);
    return realStep(trx, input);
  });
}

describeEachDatabase("the automatic renewal's switch, raced", (app, dialect) => {
  // Braced: a function returned from beforeEach is run as its cleanup, and mockClear returns the mock.
  beforeEach(() => {
    step.mockClear();
  });

  it("refuses a service deleted between its read and its update as one never found", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    const { db, admin } = await asAdmin(app());
    // What the switch answers for a service that is not there when it is read.
    const notFound = await setAutoRenew(db, {
      userId: user,
      serviceId: serviceId + 1_000_000,
      autoRenew: true,
    });
    expect(notFound).toEqual(refusal("notFound", "services.errors.notFound"));
    beforeTheUpdate(async (trx, id) => {
      // On PostgreSQL an admin's deletion commits on another connection, as from another request (the
      // switch's transaction has only read the row, so nothing waits). SQLite's transaction holds the
      // write lock from its start, so nothing else commits there: the deletion runs inside it, and the
      // refusal rolls it back with the rest.
      if (dialect === "postgres")
        expect(await deleteService(db, { actorId: admin, serviceId: id })).toEqual({ ok: true });
      else await trx.deleteFrom("hosting_services").where("id", "=", id).execute();
    });
    expect(await setAutoRenew(db, { userId: user, serviceId, autoRenew: true })).toEqual(notFound);
    expect(step).toHaveBeenCalledTimes(1);
    if (dialect === "postgres")
      expect(await readRows(db, "hosting_services", ["id"], { id: serviceId })).toEqual([]);
  });

  it("answers a switch another request turned meanwhile as unchanged, with the service as it is now", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    const db = app().db;
    beforeTheUpdate((trx, id) =>
      trx.updateTable("hosting_services").set({ auto_renew: 1 }).where("id", "=", id).execute(),
    );
    expect(await setAutoRenew(db, { userId: user, serviceId, autoRenew: true })).toMatchObject({
      ok: true,
      changed: false,
      service: { id: serviceId, autoRenew: true },
    });
  });
});
