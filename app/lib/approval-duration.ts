/**
 * The approval time (the settings' approvalHours) as a customer reads it: whole days from two days up
 * ("3 days" rather than "72 hours"), hours otherwise ("24 hours", "36 hours").
 */
export function approvalDuration(hours: number): { unit: "hours" | "days"; count: number } {
  return hours >= 48 && hours % 24 === 0
    ? { unit: "days", count: hours / 24 }
    : { unit: "hours", count: hours };
}
