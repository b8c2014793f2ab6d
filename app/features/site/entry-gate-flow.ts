import { looksHeadless, newQuiz } from "~/domain/site/site";

// The entry gate's steps (spec section 4), without any view: the React component (a signed-in visitor's
// hydrated page) and the enhance script (everyone else, app/entry.enhance.ts) each draw the states it
// hands them, so the rules and timings live here once.

export const ENTRY_GATE = {
  /** sessionStorage key: passed once per browser session. */
  passedKey: "hostfront_gate_passed",
  checkSeconds: 5,
  /** How long "Loading..." shows after a right answer. */
  loadingMs: 300,
} as const;

export type GatePath = "/bot-detected" | "/verification-failed";

export type GateState =
  | { stage: "hidden" }
  | { stage: "checking"; seconds: number }
  | { stage: "quiz"; a: number; b: number; wrong: boolean }
  | { stage: "loading" };

export interface GateEnvironment {
  /** A getter, not the object: a browser that blocks storage throws on the read itself. */
  storage: () => Pick<Storage, "getItem" | "setItem">;
  navigator: Parameters<typeof looksHeadless>[0];
  go: (path: GatePath) => void;
  render: (state: GateState) => void;
  random?: () => number;
}

export interface EntryGate {
  /** The visitor's answer to the quiz; true when it was right. */
  answer: (value: unknown) => boolean;
  /** Stops every timer (the page goes away). */
  stop: () => void;
}

/**
 * Counts down 5 s; an automated browser goes to /bot-detected, anything thrown to /verification-failed;
 * otherwise a multiplication quiz, a new one after each wrong answer. A right answer shows "Loading..."
 * and then the page, and is remembered for the browser session. Starts on the next tick, so a view can
 * subscribe first.
 */
export function startEntryGate(env: GateEnvironment): EntryGate {
  let state: GateState = { stage: "hidden" };
  let product = 0;
  let interval: ReturnType<typeof setInterval> | undefined;
  let timeout: ReturnType<typeof setTimeout> | undefined;
  const show = (next: GateState) => {
    state = next;
    env.render(next);
  };
  const stop = () => {
    clearInterval(interval);
    clearTimeout(timeout);
  };
  const fail = () => {
    stop();
    env.go("/verification-failed");
  };
  const ask = (wrong: boolean) => {
    const quiz = newQuiz(env.random);
    product = quiz.answer;
    show({ stage: "quiz", a: quiz.a, b: quiz.b, wrong });
  };

  timeout = setTimeout(() => {
    try {
      if (env.storage().getItem(ENTRY_GATE.passedKey) === "1") return;
      let left: number = ENTRY_GATE.checkSeconds;
      show({ stage: "checking", seconds: left });
      interval = setInterval(() => {
        try {
          left -= 1;
          show({ stage: "checking", seconds: left });
          if (left > 0) return;
          clearInterval(interval);
          if (looksHeadless(env.navigator)) env.go("/bot-detected");
          else ask(false);
        } catch {
          fail();
        }
      }, 1000);
    } catch {
      fail();
    }
  }, 0);

  return {
    answer(value) {
      if (state.stage !== "quiz") return false;
      if (Number(value) !== product || String(value ?? "").trim() === "") {
        ask(true);
        return false;
      }
      show({ stage: "loading" });
      try {
        env.storage().setItem(ENTRY_GATE.passedKey, "1");
      } catch {
        fail();
        return true;
      }
      timeout = setTimeout(() => show({ stage: "hidden" }), ENTRY_GATE.loadingMs);
      return true;
    },
    stop,
  };
}
