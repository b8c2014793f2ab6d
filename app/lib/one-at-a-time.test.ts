import { describe, expect, it } from "vitest";
import { oneAtATime } from "./one-at-a-time";

/** A piece of work the test ends when it chooses, noting when it starts. */
function gated(started: string[], name: string) {
  let end!: (fail?: boolean) => void;
  const ended = new Promise<string>((resolve, reject) => {
    end = (fail) => (fail ? reject(new Error(name)) : resolve(name));
  });
  return { work: () => (started.push(name), ended), end };
}

/** Lets every promise callback already due run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("oneAtATime", () => {
  it("starts each piece of work once the one before it has ended, in order, a failure too", async () => {
    const queue = oneAtATime();
    const started: string[] = [];
    const [a, b, c] = ["a", "b", "c"].map((name) => gated(started, name));
    const results = [queue(a!.work), queue(b!.work), queue(c!.work)].map((run) =>
      run.then(
        (value) => `ok ${value}`,
        (error: Error) => `failed ${error.message}`,
      ),
    );
    await settle();
    expect(started).toEqual(["a"]);
    a!.end(true);
    await settle();
    expect(started).toEqual(["a", "b"]);
    b!.end();
    await settle();
    expect(started).toEqual(["a", "b", "c"]);
    c!.end();
    expect(await Promise.all(results)).toEqual(["failed a", "ok b", "ok c"]);
  });

  it("keeps one queue per call: two queues do not wait for each other", async () => {
    const started: string[] = [];
    const first = gated(started, "first");
    const second = gated(started, "second");
    const done = [oneAtATime()(first.work), oneAtATime()(second.work)];
    await settle();
    expect(started).toEqual(["first", "second"]);
    first.end();
    second.end();
    await Promise.all(done);
  });
});
