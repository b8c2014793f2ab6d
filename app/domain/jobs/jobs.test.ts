import { describe, expect, it } from "vitest";
import {
  afterFailure,
  didNothing,
  FREE_WAITS_MS,
  MAX_RETRY_DELAY_MS,
  parseCounts,
  retryDelayMs,
  waitIsFree,
} from "./jobs";
import { automationActionSchema, automationQuerySchema } from "./jobs.schemas";
import {
  isCronExpression,
  nextSlot,
  scheduleStep,
  slotKey,
  staleKey,
  staleSlot,
} from "./schedule-slots";

describe("retry delays", () => {
  it("doubles per attempt, half of it random, within the cap", () => {
    expect(retryDelayMs(1, 1000, 0)).toBe(500);
    expect(retryDelayMs(1, 1000, 0.99)).toBe(995);
    expect(retryDelayMs(2, 1000, 0)).toBe(1000);
    expect(retryDelayMs(3, 1000, 0.5)).toBe(3000);
    expect(retryDelayMs(4, 1000, 1)).toBe(8000);
    expect(retryDelayMs(40, 1000, 1)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(40, 1000, 0)).toBe(MAX_RETRY_DELAY_MS / 2);
  });

  it("spreads jobs that failed together", () => {
    const delays = [0, 0.25, 0.5, 0.75].map((random) => retryDelayMs(3, 10_000, random));
    expect(new Set(delays).size).toBe(4);
    for (const delay of delays) expect(delay).toBeGreaterThanOrEqual(20_000);
    for (const delay of delays) expect(delay).toBeLessThan(40_000);
  });

  it("waits after a failed attempt, and ends the job after its last", () => {
    const now = new Date("2026-11-24T10:00:00.000Z");
    expect(afterFailure({ attempts: 1, maxAttempts: 3 }, now, 1000, 0)).toEqual({
      state: "failed",
      runAt: new Date("2026-11-24T10:00:00.500Z"),
    });
    expect(afterFailure({ attempts: 2, maxAttempts: 3 }, now, 1000, 0)).toEqual({
      state: "failed",
      runAt: new Date("2026-11-24T10:00:01.000Z"),
    });
    expect(afterFailure({ attempts: 3, maxAttempts: 3 }, now, 1000, 0)).toEqual({ state: "dead" });
  });

  it("gives a wait its attempt back for a day after the job was queued, not after", () => {
    const queued = "2026-11-24T10:00:00.000Z";
    const after = (ms: number) => new Date(Date.parse(queued) + ms);
    expect(waitIsFree(queued, after(0))).toBe(true);
    expect(waitIsFree(queued, after(FREE_WAITS_MS - 1))).toBe(true);
    expect(waitIsFree(queued, after(FREE_WAITS_MS))).toBe(false);
    expect(FREE_WAITS_MS).toBe(24 * 60 * 60 * 1000);
  });
});

describe("schedules", () => {
  const zone = "Africa/Casablanca";

  it("reads cron expressions in the site's time zone", () => {
    // Tokyo has no summer time: 03:15 there is 18:15 UTC the day before.
    expect(
      nextSlot("15 3 * * *", "Asia/Tokyo", new Date("2026-11-24T00:00:00Z")).toISOString(),
    ).toBe("2026-11-24T18:15:00.000Z");
    // Whatever Morocco's offset is that day, the slot is 03:15 on its clocks.
    const casablanca = nextSlot("15 3 * * *", zone, new Date("2026-11-24T00:00:00Z"));
    expect(
      casablanca.toLocaleTimeString("en-GB", {
        timeZone: zone,
        hour: "2-digit",
        minute: "2-digit",
      }),
    ).toBe("03:15");
    expect(nextSlot("15 3 * * *", "UTC", new Date("2026-11-24T00:00:00Z")).toISOString()).toBe(
      "2026-11-24T03:15:00.000Z",
    );
    expect(nextSlot("*/5 * * * *", zone, new Date("2026-11-24T10:02:00Z")).toISOString()).toBe(
      "2026-11-24T10:05:00.000Z",
    );
    expect(isCronExpression("*/5 * * * *")).toBe(true);
    expect(isCronExpression("every day")).toBe(false);
  });

  it("refuses a schedule that reads as cron but never falls due, rather than giving no slot", () => {
    // February has no 30th: croner reads it, and finds no run.
    expect(isCronExpression("0 0 30 2 *")).toBe(true);
    expect(() => nextSlot("0 0 30 2 *", "UTC", new Date("2026-11-24T00:00:00Z"))).toThrow(
      'The schedule "0 0 30 2 *" has no run after 2026-11-24T00:00:00.000Z',
    );
  });

  it("waits for the first slot when a schedule is seen for the first time", () => {
    const step = scheduleStep(
      { cron: "0 * * * *" },
      undefined,
      new Date("2026-11-24T10:30:00Z"),
      "UTC",
    );
    expect(step).toEqual({ kind: "first", nextRunAt: new Date("2026-11-24T11:00:00Z") });
  });

  it("waits until the slot, then queues one run named by it", () => {
    const state = { nextRunAt: "2026-11-24T11:00:00.000Z" };
    expect(
      scheduleStep({ cron: "0 * * * *" }, state, new Date("2026-11-24T10:59:59Z"), "UTC"),
    ).toEqual({
      kind: "wait",
    });
    expect(
      scheduleStep({ cron: "0 * * * *" }, state, new Date("2026-11-24T11:00:00Z"), "UTC"),
    ).toEqual({
      kind: "due",
      slot: new Date("2026-11-24T11:00:00Z"),
      nextRunAt: new Date("2026-11-24T12:00:00Z"),
    });
  });

  it("runs a schedule that missed many slots once, then goes on from now", () => {
    // Every process was down for three days: 72 hourly slots passed.
    const state = { nextRunAt: "2026-11-21T11:00:00.000Z" };
    const now = new Date("2026-11-24T10:20:00Z");
    const step = scheduleStep({ cron: "0 * * * *" }, state, now, "UTC");
    expect(step).toEqual({
      kind: "due",
      slot: new Date("2026-11-21T11:00:00Z"),
      nextRunAt: new Date("2026-11-24T11:00:00Z"),
    });
    // Looked at again a moment later, it waits: the missed slots are not run one by one.
    if (step.kind !== "due") throw new Error("expected due");
    const after = scheduleStep(
      { cron: "0 * * * *" },
      { nextRunAt: step.nextRunAt.toISOString() },
      new Date(now.getTime() + 1000),
      "UTC",
    );
    expect(after).toEqual({ kind: "wait" });
    expect(slotKey("housekeeping.sessions", step.slot)).toBe(
      "schedule:housekeeping.sessions:2026-11-21T11:00:00.000Z",
    );
  });
});

describe("stale schedules", () => {
  const hourly = { cron: "0 * * * *" };

  it("is stale once it has not run for longer than twice its interval", () => {
    // Waiting for 11:00: it last ran at 10:00, so it is stale after 12:00 (two hours), not at 12:00.
    const awaiting = "2026-11-24T11:00:00.000Z";
    expect(staleSlot(hourly, awaiting, new Date("2026-11-24T11:30:00Z"), "UTC")).toBeNull();
    expect(staleSlot(hourly, awaiting, new Date("2026-11-24T12:00:00Z"), "UTC")).toBeNull();
    expect(staleSlot(hourly, awaiting, new Date("2026-11-24T12:00:01Z"), "UTC")).toEqual(
      new Date(awaiting),
    );
    expect(staleKey("lifecycle.daily", new Date(awaiting))).toBe(
      "stale:lifecycle.daily:2026-11-24T11:00:00.000Z",
    );
  });

  it("measures the interval from the cron, in the site's time zone", () => {
    const daily = { cron: "15 3 * * *" };
    const awaiting = nextSlot(daily.cron, "Asia/Tokyo", new Date("2026-11-24T00:00:00Z"));
    const day = 24 * 60 * 60_000;
    expect(
      staleSlot(daily, awaiting.toISOString(), new Date(awaiting.getTime() + day), "Asia/Tokyo"),
    ).toBeNull();
    expect(
      staleSlot(
        daily,
        awaiting.toISOString(),
        new Date(awaiting.getTime() + day + 1),
        "Asia/Tokyo",
      ),
    ).toEqual(awaiting);
  });

  it("does not alert on a fresh install before its first slot, nor just after it", () => {
    const now = new Date("2026-11-24T10:30:00Z");
    const first = scheduleStep(hourly, undefined, now, "UTC");
    if (first.kind !== "first") throw new Error("expected first");
    const nextRunAt = first.nextRunAt.toISOString();
    expect(staleSlot(hourly, nextRunAt, now, "UTC")).toBeNull();
    expect(staleSlot(hourly, nextRunAt, new Date("2026-11-24T11:10:00Z"), "UTC")).toBeNull();
    expect(staleSlot(hourly, nextRunAt, new Date("2026-11-24T12:10:00Z"), "UTC")).toEqual(
      first.nextRunAt,
    );
  });

  it("is a new episode once the schedule ran again", () => {
    // Stale while waiting for 11:00; then a worker came back at 14:20 and ran it once.
    const now = new Date("2026-11-24T14:20:00Z");
    const step = scheduleStep(hourly, { nextRunAt: "2026-11-24T11:00:00.000Z" }, now, "UTC");
    if (step.kind !== "due") throw new Error("expected due");
    const nextRunAt = step.nextRunAt.toISOString();
    expect(staleSlot(hourly, nextRunAt, now, "UTC")).toBeNull();
    const again = staleSlot(hourly, nextRunAt, new Date("2026-11-24T16:30:00Z"), "UTC");
    expect(again).toEqual(new Date("2026-11-24T15:00:00Z"));
    expect(staleKey("x", again!)).not.toBe(staleKey("x", new Date("2026-11-24T11:00:00Z")));
  });
});

describe("a run's counts", () => {
  it("did nothing when it counted nothing or only zeros", () => {
    expect(didNothing({})).toBe(true);
    expect(didNothing({ reminded: 0, renewed: 0 })).toBe(true);
    expect(didNothing({ reminded: 0, renewed: 2 })).toBe(false);
  });
});

describe("the admin page's inputs", () => {
  it("reads each action and names what is wrong", () => {
    expect(automationActionSchema.parse({ intent: "retry", id: "12" })).toEqual({
      intent: "retry",
      id: 12,
    });
    expect(
      automationActionSchema.parse({ intent: "run-now", schedule: "housekeeping.sessions" }),
    ).toEqual({
      intent: "run-now",
      schedule: "housekeeping.sessions",
    });
    const wrong = automationActionSchema.safeParse({ intent: "discard", id: "x" });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]?.message).toBe("admin.automation.errors.jobNotFound");
    const unknown = automationActionSchema.safeParse({ intent: "explode" });
    expect(unknown.error?.issues[0]?.message).toBe("admin.automation.errors.unknownAction");
    const noSchedule = automationActionSchema.safeParse({ intent: "run-now" });
    expect(noSchedule.error?.issues[0]?.message).toBe("admin.automation.errors.scheduleNotFound");
    expect(
      automationActionSchema.parse({ intent: "time-zone", timeZone: "Africa/Casablanca" }),
    ).toEqual({ intent: "time-zone", timeZone: "Africa/Casablanca" });
    expect(automationActionSchema.parse({ intent: "alerts", discordWebhook: "" })).toMatchObject({
      intent: "alerts",
    });
  });

  it("reads the page of the job list, a bad one as the first", () => {
    expect(automationQuerySchema.parse({ page: "3" })).toEqual({ page: 3 });
    expect(automationQuerySchema.parse({ page: "x" })).toEqual({ page: 1 });
  });

  it("reads a run's counts, leaving out what is not a whole number", () => {
    expect(parseCounts('{"sessions":3,"bad":"x","half":1.5}')).toEqual({ sessions: 3 });
    expect(parseCounts("not json")).toEqual({});
    expect(parseCounts("[1]")).toEqual({});
  });
});
