import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { LOG_FLUSH_MS } from "./log-destination";

/** Runs `code` in a Node process with a logger on logDestination(); resolves with what it printed. */
function run(
  code: string,
  onLine?: (output: string) => void,
): Promise<{ output: string; exitedAt: number }> {
  return new Promise((resolve, reject) => {
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
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      onLine?.(output);
    });
    child.on("error", reject);
    child.on("close", () => resolve({ output, exitedAt }));
    let exitedAt = 0;
    child.on("exit", () => (exitedAt = Date.now()));
  });
}

describe("logDestination", () => {
  it("writes every line when the process exits at once", async () => {
    const { output } = await run(
      `for (let i = 0; i < 3; i++) logger.info("line " + i); process.exit(0);`,
    );
    expect(output.match(/"msg":"line \d"/g)).toEqual([
      '"msg":"line 0"',
      '"msg":"line 1"',
      '"msg":"line 2"',
    ]);
  });

  it("writes a line of a quiet process within the flush interval, not only at exit", async () => {
    let seenAt: number | undefined;
    const { output, exitedAt } = await run(
      `logger.info("quiet"); setTimeout(() => process.exit(0), ${LOG_FLUSH_MS * 4});`,
      (sofar) => {
        if (seenAt === undefined && sofar.includes('"msg":"quiet"')) seenAt = Date.now();
      },
    );
    expect(output).toContain('"msg":"quiet"');
    expect(seenAt).toBeDefined();
    // Seen well before the process exited (it waits four intervals): the periodic flush wrote it.
    expect(exitedAt - seenAt!).toBeGreaterThan(LOG_FLUSH_MS);
  }, 20_000);
});
