/** The per-address form limit counts posts in fixed windows of one minute. */
export const FORM_WINDOW_MS = 60_000;

/** The start of the fixed window `now` falls in. */
export function windowStart(now: Date, windowMs = FORM_WINDOW_MS): Date {
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
}

export interface FormLimitDecision {
  allowed: boolean;
  /** Posts left in this window after this one (0 once refused). */
  remaining: number;
  /** When this window ends and the count starts again. */
  resetAt: Date;
  /** This is the first post of the window over the limit: the one refusal worth recording. */
  firstRefusal: boolean;
}

/** What the count of this window, this post included, means for this post. */
export function formLimitDecision(
  hits: number,
  limit: number,
  now: Date,
  windowMs = FORM_WINDOW_MS,
): FormLimitDecision {
  return {
    allowed: hits <= limit,
    remaining: Math.max(0, limit - hits),
    resetAt: new Date(windowStart(now, windowMs).getTime() + windowMs),
    firstRefusal: hits === limit + 1,
  };
}
