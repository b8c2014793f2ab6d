import { describe, expect, it } from "vitest";
import {
  clientServerOf,
  countReads,
  describeErrors,
  requestBound,
  serverVerdicts,
  type PanelRequestSeen,
  type RouteFigures,
} from "./servers-checks";

const PERIOD = 30_000;
const start = 1_000_000;
const resources = (server: string, at: number): PanelRequestSeen => ({
  at: start + at,
  url: `/api/client/servers/${server}/resources`,
});
/** Two servers each asked once a period, 30 to 35 s apart, and once more just after the load. */
function clean(): PanelRequestSeen[] {
  return [
    resources("aaaa1111", 1_000),
    resources("bbbb2222", 9_000),
    resources("aaaa1111", 31_500),
    resources("bbbb2222", 41_000),
    resources("aaaa1111", 62_000),
  ];
}
const count = (requests: PanelRequestSeen[]) =>
  countReads({ requests, watched: ["aaaa1111", "bbbb2222"], start, seconds: 60, periodMs: PERIOD });

const quietRoute: RouteFigures = {
  sent: 3000,
  p50: 8,
  p95: 20,
  p99: 40,
  failures: 0,
  wrongStatus: 0,
  errorKinds: {},
};

describe("clientServerOf", () => {
  it("reads the server a Client API path names, without its query or case", () => {
    expect(clientServerOf("/api/client/servers/AbCd1234/resources")).toBe("abcd1234");
    expect(clientServerOf("/api/client/servers/abcd1234?include=egg")).toBe("abcd1234");
    expect(clientServerOf("/api/client/servers/abcd1234/power")).toBe("abcd1234");
  });

  it("names no server for the Application API or the account's routes", () => {
    expect(clientServerOf("/api/application/servers/12")).toBeNull();
    expect(clientServerOf("/api/client/account")).toBeNull();
    expect(clientServerOf("/api/client")).toBeNull();
  });
});

describe("requestBound", () => {
  it("is one request a server a period, and one more each", () => {
    expect(requestBound(100, 60, PERIOD)).toBe(300);
    expect(requestBound(100, 61, PERIOD)).toBe(400);
    expect(requestBound(10, 30, PERIOD)).toBe(20);
  });
});

describe("countReads", () => {
  it("counts each server's requests per period, the load's tail in one period more", () => {
    const outcome = count(clean());
    expect(outcome.periods).toBe(2);
    expect(outcome.total).toBe(5);
    expect(outcome.bound).toBe(6);
    expect(outcome.perPeriod).toEqual([2, 2, 1]);
    expect(outcome.maxInOnePeriod).toBe(1);
    expect(outcome.minGapMs).toBe(30_500);
    expect(outcome.notRefreshed).toEqual([]);
    expect(outcome.strangers).toEqual([]);
  });

  it("finds a server asked twice in one period, and the two requests' gap", () => {
    const outcome = count([...clean(), resources("bbbb2222", 12_000)]);
    expect(outcome.maxInOnePeriod).toBe(2);
    expect(outcome.worst).toEqual({ server: "bbbb2222", period: 0, count: 2 });
    expect(outcome.minGapMs).toBe(3_000);
    expect(outcome.closest).toEqual({ server: "bbbb2222", gapMs: 3_000 });
  });

  it("counts every Client API route of a server, not only its resources", () => {
    const outcome = count([
      ...clean(),
      { at: start + 50_000, url: "/api/client/servers/aaaa1111" },
    ]);
    expect(outcome.total).toBe(6);
    expect(outcome.worst).toEqual({ server: "aaaa1111", period: 1, count: 2 });
  });

  it("leaves out what came before the load and the Application API", () => {
    const outcome = count([
      ...clean(),
      resources("aaaa1111", -5_000),
      { at: start + 10_000, url: "/api/application/servers/external/hf-svc-1" },
    ]);
    expect(outcome.total).toBe(5);
    expect(outcome.maxInOnePeriod).toBe(1);
  });

  it("tells a request for a server nobody watches, or naming none", () => {
    const outcome = count([
      ...clean(),
      resources("cccc3333", 5_000),
      { at: start + 6_000, url: "/api/client/account" },
    ]);
    expect(outcome.total).toBe(5);
    expect(outcome.strangers).toEqual([
      "/api/client/servers/cccc3333/resources",
      "/api/client/account",
    ]);
  });

  it("finds a watched server not asked again after a period, and one never asked", () => {
    const outcome = countReads({
      requests: [resources("aaaa1111", 1_000)],
      watched: ["aaaa1111", "bbbb2222"],
      start,
      seconds: 60,
      periodMs: PERIOD,
    });
    expect(outcome.notRefreshed).toEqual(["aaaa1111", "bbbb2222"]);
    expect(outcome.minGapMs).toBe(Infinity);
  });

  it("puts a request at a period's first millisecond in that period", () => {
    const outcome = count([resources("aaaa1111", 0), resources("aaaa1111", 30_000)]);
    expect(outcome.perPeriod).toEqual([1, 1, 0]);
    expect(outcome.maxInOnePeriod).toBe(1);
  });
});

describe("serverVerdicts", () => {
  const judge = (requests: PanelRequestSeen[], route = quietRoute, otherErrors: string[] = []) =>
    serverVerdicts({
      database: "sqlite",
      reads: count(requests),
      route,
      load: "500 viewers",
      periodMs: PERIOD,
      p95LimitMs: 100,
      otherErrors,
    });
  const missed = (verdicts: ReturnType<typeof judge>) =>
    verdicts.filter((verdict) => !verdict.met).map((verdict) => verdict.measure.split(":")[1]);

  it("meets every budget on a clean run", () => {
    const verdicts = judge(clean());
    expect(verdicts).toHaveLength(5);
    expect(verdicts.every((verdict) => verdict.met)).toBe(true);
  });

  it("misses the period and the gap when a server is asked twice in a period", () => {
    const verdicts = judge([...clean(), resources("bbbb2222", 12_000)]);
    expect(missed(verdicts)).toEqual([
      expect.stringContaining("in one 30 s cache period"),
      expect.stringContaining("shortest time"),
    ]);
  });

  it("misses the gap alone when two requests straddle a period's edge", () => {
    const verdicts = judge([
      resources("aaaa1111", 29_000),
      resources("aaaa1111", 31_000),
      resources("bbbb2222", 9_000),
      resources("bbbb2222", 41_000),
    ]);
    expect(missed(verdicts)).toEqual([expect.stringContaining("shortest time")]);
  });

  it("takes a gap a little short of the period, within the tolerance", () => {
    const verdicts = judge([
      resources("aaaa1111", 1_000),
      resources("aaaa1111", 30_200),
      resources("bbbb2222", 9_000),
      resources("bbbb2222", 41_000),
    ]);
    expect(missed(verdicts)).toEqual([]);
  });

  it("misses the total past the bound (which takes a second request in the load's tail)", () => {
    const many = [0, 1, 2, 3].flatMap((k) =>
      ["aaaa1111", "bbbb2222"].map((server) => resources(server, k * 30_000 + 500)),
    );
    expect(count(many).total).toBe(8);
    expect(missed(judge(many))).toEqual([
      expect.stringContaining("in one 30 s cache period"),
      expect.stringContaining("in all"),
    ]);
  });

  it("misses the p95 at the limit, and when there is none", () => {
    expect(missed(judge(clean(), { ...quietRoute, p95: 100 }))).toEqual([
      expect.stringContaining("p95"),
    ]);
    expect(missed(judge(clean(), { ...quietRoute, p95: NaN }))).toEqual([
      expect.stringContaining("p95"),
    ]);
  });

  it("counts failed requests, stale servers, strangers and the caller's errors as errors", () => {
    const failing = {
      ...quietRoute,
      failures: 1,
      wrongStatus: 2,
      errorKinds: { timeout: 1, "status 500": 2 },
    };
    const verdicts = judge(clean(), failing, ["1 dead job"]);
    const errors = verdicts.find((verdict) => verdict.measure.endsWith("errors"))!;
    expect(errors.met).toBe(false);
    expect(errors.figure).toBe(
      "2 (3 status requests failed (1 timeout, 2 status 500); 1 dead job)",
    );

    const stale = describeErrors(
      count([resources("aaaa1111", 1_000), resources("cccc3333", 2_000)]),
      quietRoute,
      [],
    );
    expect(stale).toEqual([
      "2 watched servers asked fewer than 2 times (aaaa1111, bbbb2222)",
      "1 Client API requests for no watched server (/api/client/servers/cccc3333/resources)",
    ]);
  });
});
