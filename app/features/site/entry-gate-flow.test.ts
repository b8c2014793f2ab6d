import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  ENTRY_GATE,
  startEntryGate,
  type GateEnvironment,
  type GateState,
} from "./entry-gate-flow";

const person = { userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0", languages: ["en"] };

function setUp(overrides: Partial<GateEnvironment> = {}) {
  const stored = new Map<string, string>();
  const states: GateState[] = [];
  const went: string[] = [];
  const gate = startEntryGate({
    storage: () => ({
      getItem: (key) => stored.get(key) ?? null,
      setItem: (key, value) => void stored.set(key, value),
    }),
    navigator: person,
    go: (path) => went.push(path),
    render: (state) => states.push(state),
    // 0.5 -> 3 × 3 every time
    random: () => 0.5,
    ...overrides,
  });
  return { gate, stored, states, went, last: () => states.at(-1) };
}

describe("the entry gate", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("counts down 5 s, then asks a person the quiz", () => {
    const { states, last } = setUp();
    expect(states).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(last()).toEqual({ stage: "checking", seconds: ENTRY_GATE.checkSeconds });
    vi.advanceTimersByTime(4000);
    expect(last()).toEqual({ stage: "checking", seconds: 1 });
    vi.advanceTimersByTime(1000);
    expect(last()).toEqual({ stage: "quiz", a: 3, b: 3, wrong: false });
    expect(states.map((s) => (s.stage === "checking" ? s.seconds : s.stage))).toEqual([
      5,
      4,
      3,
      2,
      1,
      0,
      "quiz",
    ]);
  });

  it("sends an automated browser to /bot-detected after the countdown", () => {
    const { went, last } = setUp({ navigator: { ...person, webdriver: true } });
    vi.advanceTimersByTime(4999);
    expect(went).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(went).toEqual(["/bot-detected"]);
    expect(last()?.stage).toBe("checking");
  });

  it("sends to /verification-failed when reading the storage throws", () => {
    const { went, states } = setUp({
      storage: () => {
        throw new Error("storage blocked");
      },
    });
    vi.advanceTimersByTime(0);
    expect(went).toEqual(["/verification-failed"]);
    expect(states).toEqual([]);
    vi.advanceTimersByTime(10_000);
    expect(went).toEqual(["/verification-failed"]);
  });

  it("sends to /verification-failed when the check itself throws", () => {
    const { went } = setUp({
      navigator: {
        get userAgent(): string {
          throw new Error("no user agent");
        },
      },
    });
    vi.advanceTimersByTime(5000);
    expect(went).toEqual(["/verification-failed"]);
  });

  it("asks again after a wrong answer, then remembers a right one for the session", () => {
    const { gate, stored, last } = setUp();
    vi.advanceTimersByTime(5000);
    expect(gate.answer("10")).toBe(false);
    expect(last()).toEqual({ stage: "quiz", a: 3, b: 3, wrong: true });
    expect(gate.answer("")).toBe(false);
    expect(stored.size).toBe(0);
    expect(gate.answer(" 9 ")).toBe(true);
    expect(last()).toEqual({ stage: "loading" });
    expect(stored.get(ENTRY_GATE.passedKey)).toBe("1");
    vi.advanceTimersByTime(ENTRY_GATE.loadingMs);
    expect(last()).toEqual({ stage: "hidden" });
  });

  it("ignores answers outside the quiz", () => {
    const { gate, states } = setUp();
    expect(gate.answer("9")).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(gate.answer("9")).toBe(false);
    expect(states.every((s) => s.stage === "checking")).toBe(true);
  });

  it("shows nothing to a browser that passed it this session", () => {
    const stored = new Map<string, string>([[ENTRY_GATE.passedKey, "1"]]);
    const states: GateState[] = [];
    startEntryGate({
      storage: () => ({ getItem: (k) => stored.get(k) ?? null, setItem: () => undefined }),
      navigator: person,
      go: () => undefined,
      render: (state) => states.push(state),
    });
    vi.advanceTimersByTime(10_000);
    expect(states).toEqual([]);
  });

  it("stops counting when stopped", () => {
    const { gate, states, went } = setUp({ navigator: { ...person, webdriver: true } });
    vi.advanceTimersByTime(2000);
    gate.stop();
    const seen = states.length;
    vi.advanceTimersByTime(10_000);
    expect(states.length).toBe(seen);
    expect(went).toEqual([]);
  });
});
