/**
 * The per-address form limit: no more than FORM_RATE_LIMIT_PER_MINUTE posts from one address to one
 * form in any minute. The same count serves longer windows (an account's tickets: so many in any ten
 * minutes, so many in any day): a window is always seven slots of a sixth of it, as below. Posts are counted in slots of ten seconds, and a post is allowed when the posts of
 * its slot and the six before it, this one included, are within the limit. Any minute lies within seven
 * consecutive slots, so no minute ever holds more than the limit; fixed one-minute windows let twice the
 * limit through around a window's edge (the limit at 0:59 and again at 1:00). Refused posts count too
 * (one atomic count per post is what keeps racing posts exact), so a sender that keeps posting while
 * refused stays refused, and one that waits as Retry-After says gets in.
 */
export const FORM_WINDOW_MS = 60_000;
/** A window is counted in this many slots (a minute in slots of ten seconds). */
const SLOTS_PER_WINDOW = 6;
export const FORM_SLOT_MS = FORM_WINDOW_MS / SLOTS_PER_WINDOW;
/** The slots a post's count spans: its own and the ones before it that a window can reach into. */
export const FORM_SLOTS = SLOTS_PER_WINDOW + 1;

/**
 * The slot length of a window of `windowMs` (a whole number of milliseconds, so slots of every length
 * start on the same clock edges in every process).
 */
export function slotLengthOf(windowMs: number): number {
  const slotMs = windowMs / SLOTS_PER_WINDOW;
  if (!Number.isInteger(slotMs) || slotMs <= 0)
    throw new RangeError(`A limit's window must be a positive multiple of 6 ms, not ${windowMs}`);
  return slotMs;
}

/** The start of the slot `now` falls in. */
export function slotStart(now: Date, slotMs = FORM_SLOT_MS): Date {
  return new Date(Math.floor(now.getTime() / slotMs) * slotMs);
}

/** The start of the oldest slot a post at `now` is counted with. */
export function oldestCountedSlot(now: Date, slotMs = FORM_SLOT_MS): Date {
  return new Date(slotStart(now, slotMs).getTime() - (FORM_SLOTS - 1) * slotMs);
}

/** The moment from which no post counts the slot starting at `slot` any more (when it may be deleted). */
export function countedUntil(slot: Date, slotMs = FORM_SLOT_MS): Date {
  return new Date(slot.getTime() + FORM_SLOTS * slotMs);
}

export interface FormLimitDecision {
  allowed: boolean;
  /** Posts left after this one until the slots counted now have passed (0 once refused). */
  remaining: number;
  /**
   * Refused: the first moment a post is allowed again if none is sent before (Retry-After). Allowed:
   * when every post counted now has passed out of the count.
   */
  resetAt: Date;
  /** The post that crossed the limit: the one refusal worth recording, not each refused post. */
  firstRefusal: boolean;
}

/**
 * What the counts mean for this post. `counts` holds the posts of the FORM_SLOTS slots, oldest first,
 * the last being this post's slot with this post counted in it (missing slots count as none).
 */
export function formLimitDecision(
  counts: readonly number[],
  limit: number,
  now: Date,
  slotMs = FORM_SLOT_MS,
): FormLimitDecision {
  const slots = Array.from(
    { length: FORM_SLOTS },
    (_, i) => counts[i - (FORM_SLOTS - counts.length)] ?? 0,
  );
  const sum = (from: number) => slots.slice(from).reduce((total, n) => total + n, 0);
  const used = sum(0);
  const allowed = used <= limit;
  // The slot from whose start the oldest slots have passed and one more post fits.
  let shift = FORM_SLOTS;
  if (!allowed)
    for (let passed = 1; passed < FORM_SLOTS; passed++)
      if (sum(passed) + 1 <= limit) {
        shift = passed;
        break;
      }
  return {
    allowed,
    remaining: allowed ? limit - used : 0,
    resetAt: new Date(slotStart(now, slotMs).getTime() + shift * slotMs),
    // Posts racing through several processes each get their own count, so exactly one sees this.
    firstRefusal: used === limit + 1,
  };
}
