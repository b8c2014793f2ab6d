import { describe, expect, it } from "vitest";
import { canRenew } from "~/domain/hosting-services/hosting-services";
import { defaultSettings } from "~/domain/settings/settings";
import { settingsActionSchema } from "~/domain/settings/settings.schemas";
import {
  autoRenewalKey,
  daysLeft,
  dueReminder,
  dueWindows,
  inRenewalWindow,
  orderExpired,
  pastGrace,
  planRenewals,
  reminderKey,
  reminderThresholds,
  renewalShortKey,
  serviceDeadlines,
  suspensionDate,
  terminationDate,
  terminationDue,
  terminationWarningDue,
  terminationWarningKey,
  type LifecycleSettings,
} from "./lifecycle";

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The injected clock: every rule is asked at this time, or a few hours or days from it. */
const NOW = new Date("2031-03-10T03:00:00.000Z");
const from = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const later = (ms: number) => new Date(NOW.getTime() + ms);
const settings: LifecycleSettings = { ...defaultSettings().lifecycle, enabled: true };

describe("the lifecycle's defaults", () => {
  it("are docs/automation.md's numbers, switched off unless migration 0028 says otherwise", () => {
    expect(defaultSettings().lifecycle).toEqual({
      enabled: false,
      firstReminderDays: 7,
      secondReminderDays: 3,
      lastReminderDays: 1,
      graceDays: 2,
      terminationDays: 14,
      terminationWarningDays: 3,
      expireOrders: true,
      orderExpiryDays: 7,
    });
  });
});

describe("the lifecycle's settings form", () => {
  const form = {
    intent: "lifecycle",
    firstReminderDays: "7",
    secondReminderDays: "3",
    lastReminderDays: "0",
    graceDays: "2",
    terminationDays: "14",
    terminationWarningDays: "3",
    orderExpiryDays: "7",
  };
  it("reads whole numbers of days and the switches (unticked: off)", () => {
    expect(settingsActionSchema.parse({ ...form, enabled: "on" })).toEqual({
      ...form,
      firstReminderDays: 7,
      secondReminderDays: 3,
      lastReminderDays: 0,
      graceDays: 2,
      terminationDays: 14,
      terminationWarningDays: 3,
      orderExpiryDays: 7,
      enabled: true,
      expireOrders: false,
    });
  });
  it.each([
    ["graceDays", "-1"],
    ["graceDays", "2.5"],
    ["graceDays", ""],
    ["terminationDays", "0"],
    ["orderExpiryDays", "366"],
    ["firstReminderDays", "seven"],
  ])("refuses %s = %j with a clear message", (field, value) => {
    const result = settingsActionSchema.safeParse({ ...form, [field]: value });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: [field],
      message: "admin-settings.errors.daysInvalid",
    });
  });
});

describe("reminders", () => {
  it("takes the reminder days largest first, each once, leaving out zeros", () => {
    expect(reminderThresholds(settings)).toEqual([7, 3, 1]);
    expect(
      reminderThresholds({
        ...settings,
        firstReminderDays: 3,
        secondReminderDays: 0,
        lastReminderDays: 3,
      }),
    ).toEqual([3]);
  });

  it("is due at the smallest threshold reached, never after the expiry", () => {
    const thresholds = [7, 3, 1];
    expect(dueReminder(from(8 * DAY), NOW, thresholds)).toBeNull();
    expect(dueReminder(from(7 * DAY), NOW, thresholds)).toBe(7);
    expect(dueReminder(from(4 * DAY), NOW, thresholds)).toBe(7);
    expect(dueReminder(from(3 * DAY), NOW, thresholds)).toBe(3);
    expect(dueReminder(from(25 * HOUR), NOW, thresholds)).toBe(3);
    // Found 12 hours before its expiry: the last reminder, not all three at once.
    expect(dueReminder(from(12 * HOUR), NOW, thresholds)).toBe(1);
    expect(dueReminder(from(0), NOW, thresholds)).toBeNull();
    expect(dueReminder(from(-HOUR), NOW, thresholds)).toBeNull();
    expect(dueReminder(from(HOUR), NOW, [])).toBeNull();
  });

  it("comes due on exactly one daily run per threshold", () => {
    const expiry = from(9 * DAY + 5 * HOUR);
    const due = Array.from({ length: 12 }, (_, day) =>
      dueReminder(expiry, later(day * DAY), [7, 3, 1]),
    );
    // The keys (one per threshold) make the runs after the first of each write nothing.
    expect(due).toEqual([null, null, null, 7, 7, 7, 7, 3, 3, 1, null, null]);
    const keys = new Set(due.flatMap((d) => (d === null ? [] : [reminderKey(1, expiry, d)])));
    expect(keys.size).toBe(3);
  });

  it("counts the days left up", () => {
    expect(daysLeft(from(3 * DAY), NOW)).toBe(3);
    expect(daysLeft(from(2 * DAY + HOUR), NOW)).toBe(3);
    expect(daysLeft(from(-DAY), NOW)).toBe(0);
  });
});

describe("automatic renewal", () => {
  it("is tried from the last day before the expiry to the end of the grace period", () => {
    expect(inRenewalWindow(from(DAY + HOUR), NOW, 2)).toBe(false);
    expect(inRenewalWindow(from(DAY), NOW, 2)).toBe(true);
    expect(inRenewalWindow(from(HOUR), NOW, 2)).toBe(true);
    expect(inRenewalWindow(from(-DAY), NOW, 2)).toBe(true);
    expect(inRenewalWindow(from(-2 * DAY + HOUR), NOW, 2)).toBe(true);
    expect(inRenewalWindow(from(-2 * DAY), NOW, 2)).toBe(false);
    // No grace period: only before the expiry.
    expect(inRenewalWindow(from(-HOUR), NOW, 0)).toBe(false);
  });

  it("pays each customer's services in turn from their balance; the rest are short by what is left", () => {
    const services = [
      { id: 1, userId: "a", priceCents: 500 },
      { id: 2, userId: "a", priceCents: 700 },
      { id: 3, userId: "b", priceCents: 500 },
      { id: 4, userId: "a", priceCents: 300 },
      { id: 5, userId: "c", priceCents: 0 },
    ];
    const plan = planRenewals(
      services,
      new Map([
        ["a", 1_000],
        ["b", 499],
      ]),
    );
    expect(plan.renew.map((s) => s.id)).toEqual([1, 4, 5]);
    expect(plan.short.map((s) => [s.id, s.missingCents])).toEqual([
      [2, 200],
      [3, 1],
    ]);
  });

  it("keys a renewal by its service and expiry date, and a short balance also by the day", () => {
    const expiry = "2031-03-11T05:17:00.000Z";
    expect(autoRenewalKey(4, expiry)).toBe(autoRenewalKey(4, "2031-03-11T05:17:00Z"));
    expect(autoRenewalKey(4, expiry)).not.toBe(autoRenewalKey(4, "2031-04-11T05:17:00.000Z"));
    expect(renewalShortKey(4, expiry, NOW)).toBe(renewalShortKey(4, expiry, later(20 * HOUR)));
    expect(renewalShortKey(4, expiry, NOW)).not.toBe(renewalShortKey(4, expiry, later(DAY)));
  });
});

describe("suspension and termination", () => {
  it("suspends once the grace period is over", () => {
    expect(pastGrace(from(-2 * DAY + 1), NOW, 2)).toBe(false);
    expect(pastGrace(from(-2 * DAY), NOW, 2)).toBe(true);
    expect(pastGrace(from(-HOUR), NOW, 0)).toBe(true);
  });

  it("terminates 14 days after the suspension, warning 3 days before, once", () => {
    const suspendedAt = from(-11 * DAY + 1);
    expect(terminationWarningDue(suspendedAt, NOW, settings)).toBe(false);
    expect(terminationWarningDue(from(-11 * DAY), NOW, settings)).toBe(true);
    expect(terminationWarningDue(from(-13 * DAY), NOW, settings)).toBe(true);
    expect(terminationWarningDue(from(-14 * DAY), NOW, settings)).toBe(false);
    expect(terminationDue(from(-14 * DAY + 1), NOW, settings)).toBe(false);
    expect(terminationDue(from(-14 * DAY), NOW, settings)).toBe(true);
    expect(terminationDate(from(-11 * DAY), settings)).toBe(from(3 * DAY));
    expect(terminationWarningKey(3, suspendedAt)).toBe(terminationWarningKey(3, suspendedAt));
    // No warning asked for: none.
    expect(
      terminationWarningDue(from(-13 * DAY), NOW, { ...settings, terminationWarningDays: 0 }),
    ).toBe(false);
  });

  it("lets a customer renew a service suspended for expiry, never one an admin suspended", () => {
    expect(canRenew("active")).toBe(true);
    expect(canRenew("suspended", "expired")).toBe(true);
    expect(canRenew("suspended", "admin")).toBe(false);
    expect(canRenew("suspended", null)).toBe(false);
    expect(canRenew("terminated")).toBe(false);
  });
});

describe("what a customer is told comes next", () => {
  const service = (status: string, reason: string | null, suspendedAt: string | null) => ({
    status,
    expiresAt: from(-DAY),
    suspensionReason: reason,
    suspendedAt,
  });

  it("suspends an active service its grace after the expiry, and terminates it its days after that", () => {
    expect(suspensionDate(from(-DAY), settings)).toBe(from(DAY));
    expect(suspensionDate(from(-DAY), { ...settings, graceDays: 0 })).toBe(from(-DAY));
    expect(serviceDeadlines(service("active", null, null), settings)).toEqual({
      suspendsAt: from(DAY),
      terminatesAt: from(15 * DAY),
    });
    expect(
      serviceDeadlines(service("active", null, null), {
        ...settings,
        graceDays: 5,
        terminationDays: 30,
      }),
    ).toEqual({ suspendsAt: from(4 * DAY), terminatesAt: from(34 * DAY) });
  });

  it("terminates a service suspended for expiry its days after the suspension", () => {
    expect(serviceDeadlines(service("suspended", "expired", from(-3 * DAY)), settings)).toEqual({
      suspendsAt: null,
      terminatesAt: from(11 * DAY),
    });
  });

  it("says nothing the lifecycle will not do: switched off, an admin's suspension, terminated", () => {
    const none = { suspendsAt: null, terminatesAt: null };
    expect(
      serviceDeadlines(service("active", null, null), { ...settings, enabled: false }),
    ).toEqual(none);
    expect(serviceDeadlines(service("suspended", "admin", from(-3 * DAY)), settings)).toEqual(none);
    expect(serviceDeadlines(service("suspended", null, null), settings)).toEqual(none);
    expect(serviceDeadlines(service("terminated", null, null), settings)).toEqual(none);
  });
});

describe("pending orders", () => {
  it("are given up 7 days after they were placed, unless the setting is off", () => {
    expect(orderExpired(from(-7 * DAY + 1), NOW, settings)).toBe(false);
    expect(orderExpired(from(-7 * DAY), NOW, settings)).toBe(true);
    expect(orderExpired(from(-30 * DAY), NOW, { ...settings, expireOrders: false })).toBe(false);
  });
});

describe("the windows the database selects by", () => {
  it("are the rules' own bounds", () => {
    const w = dueWindows(settings, NOW);
    expect(w).toEqual({
      now: NOW.toISOString(),
      remindUntil: from(7 * DAY),
      renewFrom: from(-2 * DAY),
      renewUntil: from(DAY),
      suspendUntil: from(-2 * DAY),
      warnUntil: from(-11 * DAY),
      terminateUntil: from(-14 * DAY),
      ordersUntil: from(-7 * DAY),
    });
  });
});
