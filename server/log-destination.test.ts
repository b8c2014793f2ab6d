import { spawn } from "node:child_process";
import { describe, expect, it, onTestFinished } from "vitest";

/**
 * Runs `code` in a Node process with a logger on logDestination(). Returns what it has printed so far,
 * a promise of the first output for which `seen` holds, and one of all it printed once it exited. Its
 * standard input is a pipe: `code` may wait for it to end, which `end()` does.
 */
function run(code: string, seen: (output: string) => boolean = () => false) {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `import pino from "pino";
       import { logDestination } from "./server/log-destination.ts";
       const logger = pino({ level: "info" }, logDestination());
       ${code}`,
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  let output = "";
  let exited = false;
  let onSeen: (output: string) => void = () => {};
  const whenSeen = new Promise<string>((resolve) => (onSeen = resolve));
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    if (seen(output)) onSeen(output);
  });
  const closed = new Promise<string>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", () => (exited = true));
    child.on("close", () => resolve(output));
  });
  // A test that failed while the process waits for its input leaves no process behind.
  onTestFinished(() => {
    if (!exited) child.kill();
  });
  return {
    whenSeen,
    closed,
    exited: () => exited,
    end: () => child.stdin.end(),
  };
}

describe("logDestination", () => {
  it("writes every line when the process exits at once", async () => {
    const output = await run(
      `for (let i = 0; i < 3; i++) logger.info("line " + i); process.exit(0);`,
    ).closed;
    expect(output.match(/"msg":"line \d"/g)).toEqual([
      '"msg":"line 0"',
      '"msg":"line 1"',
      '"msg":"line 2"',
    ]);
  });

  it("writes a line of a quiet process while it runs, not only at exit", async () => {
    // The line is far shorter than the buffer's 4 KiB, and the process logs nothing else and lives until
    // the test ends its standard input: only the periodic flush can write the line before then.
    const child = run(
      `logger.info("quiet"); process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`,
      (sofar) => sofar.includes('"msg":"quiet"'),
    );
    const seen = await child.whenSeen;
    expect(child.exited()).toBe(false);
    expect(seen).toContain('"msg":"quiet"');
    child.end();
    expect(await child.closed).toMatch(/^[^\n]*"msg":"quiet"[^\n]*\n$/);
  }, 20_000);
});
