import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTION_LABELS } from "./audit-log";

/** Every `.server.ts` file under app/domain. */
function serverFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return serverFiles(file);
    return entry.name.endsWith(".server.ts") ? [file] : [];
  });
}

describe("the audit log's action labels", () => {
  it("name every action the domain writes, so no page shows an action's code", () => {
    const written = new Set<string>();
    for (const file of serverFiles(path.resolve("app/domain"))) {
      const source = readFileSync(file, "utf8");
      for (const match of source.matchAll(/\baction: "([a-z_]+\.[a-z_.]+)"/g))
        written.add(match[1]!);
      for (const match of source.matchAll(
        /\baction: input\.expired \? "([a-z_.]+)" : "([a-z_.]+)"/g,
      ))
        written.add(match[1]!).add(match[2]!);
    }
    // Written with a template (automation.server.ts): the job's retry and discard.
    written.add("automation.job_retry").add("automation.job_discard");
    expect(written.size).toBeGreaterThan(40);
    expect([...written].filter((action) => !(action in AUDIT_ACTION_LABELS)).sort()).toEqual([]);
  });
});
