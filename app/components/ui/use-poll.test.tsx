// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { usePolledJson } from "./use-poll";

// A part of a page kept fresh from a JSON route while the page is on the screen: the loader's value,
// then each answer; paused while the page is hidden, asked at once when it comes back; a failed answer
// keeps what is shown; the loader's new data wins over what was polled.

interface Reading {
  state: string;
}

let answers: (Reading | "fail" | 404)[];
let fetched: string[];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  answers = [];
  fetched = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      fetched.push(url);
      const answer = answers.shift() ?? { state: "same" };
      if (answer === "fail") throw new TypeError("network down");
      if (answer === 404) return new Response("null", { status: 404 });
      return Response.json(answer);
    }),
  );
  setVisibility("visible");
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function setVisibility(state: "visible" | "hidden") {
  Object.defineProperty(document, "visibilityState", { configurable: true, value: state });
  document.dispatchEvent(new Event("visibilitychange"));
}

function Shown({
  initial,
  everyMs,
  enabled = true,
}: {
  initial: Reading;
  everyMs: number | ((shown: Reading) => number);
  enabled?: boolean;
}) {
  const value = usePolledJson("/things/7/status", initial, everyMs, enabled);
  return <p data-testid="shown">{value.state}</p>;
}

const shown = () => screen.getByTestId("shown").textContent;

async function wait(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

describe("usePolledJson", () => {
  it("shows the loader's value, then each answer, asking every `everyMs` after the last", async () => {
    answers = [{ state: "starting" }, { state: "running" }];
    render(<Shown initial={{ state: "offline" }} everyMs={1000} />);
    expect(shown()).toBe("offline");
    await wait(999);
    expect(fetched).toEqual([]);
    await wait(1);
    expect(fetched).toEqual(["/things/7/status"]);
    expect(shown()).toBe("starting");
    await wait(1000);
    expect(shown()).toBe("running");
    expect(fetched).toHaveLength(2);
  });

  it("asks nothing while the page is hidden, and at once when it is shown again", async () => {
    render(<Shown initial={{ state: "offline" }} everyMs={1000} />);
    await wait(1000);
    expect(fetched).toHaveLength(1);
    act(() => setVisibility("hidden"));
    await wait(10_000);
    expect(fetched).toHaveLength(1);
    answers = [{ state: "running" }];
    act(() => setVisibility("visible"));
    await wait(0);
    expect(fetched).toHaveLength(2);
    expect(shown()).toBe("running");
  });

  it("keeps what it shows when an answer fails or is refused, and asks again next turn", async () => {
    answers = [{ state: "running" }, "fail", 404, { state: "stopping" }];
    render(<Shown initial={{ state: "offline" }} everyMs={500} />);
    await wait(500);
    expect(shown()).toBe("running");
    await wait(500);
    expect(shown()).toBe("running");
    await wait(500);
    expect(shown()).toBe("running");
    await wait(500);
    expect(shown()).toBe("stopping");
    expect(fetched).toHaveLength(4);
  });

  it("follows the pace the shown value asks for", async () => {
    answers = [{ state: "starting" }, { state: "starting" }, { state: "running" }];
    const pace = (value: Reading) => (value.state === "starting" ? 200 : 1000);
    render(<Shown initial={{ state: "running" }} everyMs={pace} />);
    await wait(1000);
    expect(fetched).toHaveLength(1);
    await wait(200);
    expect(fetched).toHaveLength(2);
    await wait(200);
    expect(fetched).toHaveLength(3);
    expect(shown()).toBe("running");
    await wait(999);
    expect(fetched).toHaveLength(3);
    await wait(1);
    expect(fetched).toHaveLength(4);
  });

  it("shows the loader's new value over what was polled, and asks nothing while not enabled", async () => {
    answers = [{ state: "polled" }];
    const { rerender } = render(<Shown initial={{ state: "first" }} everyMs={100} />);
    await wait(100);
    expect(shown()).toBe("polled");
    rerender(<Shown initial={{ state: "reloaded" }} everyMs={100} />);
    expect(shown()).toBe("reloaded");
    rerender(<Shown initial={{ state: "reloaded" }} everyMs={100} enabled={false} />);
    const asked = fetched.length;
    await wait(1000);
    expect(fetched).toHaveLength(asked);
  });
});
