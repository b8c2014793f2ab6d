// The Client API's rate limit, `throttle:api.client` (RouteServiceProvider::configureRateLimiting,
// config/http.php): per user, 720 requests a minute by default. Laravel's RateLimiter opens a window of
// a minute at the first hit; a request past the limit is refused (429 ThrottleRequestsException, with
// Retry-After: the seconds until the window closes) and is not counted.

export const CLIENT_RATE_LIMIT = 720;

const WINDOW_SECONDS = 60;

export type ThrottleAnswer =
  | { allowed: true; headers: Record<string, string> }
  | { allowed: false; headers: Record<string, string> };

export class FakeRateLimit {
  private windowEnds: number | null = null;
  private hits = 0;

  /** `now`: milliseconds since the epoch (Date.now unless a test moves its own clock). */
  constructor(
    private perMinute: number,
    private readonly now: () => number,
  ) {
    FakeRateLimit.check(perMinute);
  }

  private static check(perMinute: number) {
    if (!(Number.isInteger(perMinute) && perMinute >= 1))
      throw new Error(`A rate limit needs a whole number ≥ 1 a minute, not ${perMinute}`);
  }

  /** From now on `perMinute` a minute, in a fresh window. */
  reset(perMinute: number) {
    FakeRateLimit.check(perMinute);
    this.perMinute = perMinute;
    this.windowEnds = null;
    this.hits = 0;
  }

  /** ThrottleRequests::handleRequest: refuse when the window is full, else count the request. */
  take(): ThrottleAnswer {
    const seconds = Math.floor(this.now() / 1000);
    if (this.windowEnds !== null && seconds >= this.windowEnds) {
      this.windowEnds = null;
      this.hits = 0;
    }
    const limit = String(this.perMinute);
    if (this.hits >= this.perMinute && this.windowEnds !== null) {
      return {
        allowed: false,
        headers: {
          "retry-after": String(this.windowEnds - seconds),
          "x-ratelimit-reset": String(this.windowEnds),
          "x-ratelimit-limit": limit,
          "x-ratelimit-remaining": "0",
        },
      };
    }
    this.windowEnds ??= seconds + WINDOW_SECONDS;
    this.hits += 1;
    return {
      allowed: true,
      headers: {
        "x-ratelimit-limit": limit,
        "x-ratelimit-remaining": String(this.perMinute - this.hits),
      },
    };
  }
}
