import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "./fixtures";

// The axe check of every page a test loads is a fixture of fixtures.ts's `test`: a spec that took
// Playwright's own `test` would load pages nobody checks.
test("every spec takes its test from fixtures.ts, so axe checks the pages it loads", () => {
  const folder = join(import.meta.dirname);
  const specs = readdirSync(folder).filter((name) => name.endsWith(".spec.ts"));
  expect(specs.length).toBeGreaterThan(10);
  for (const spec of specs) {
    const source = readFileSync(join(folder, spec), "utf8");
    const imports = [
      ...source.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+"@playwright\/test"/g),
    ];
    const values = imports.filter((match) => !match[1]).flatMap((match) => match[2]!.split(","));
    expect(
      values.map((name) => name.trim()).filter((name) => name && !name.startsWith("type ")),
      `${spec} imports values from @playwright/test: take test and expect from ./fixtures`,
    ).toEqual([]);
  }
});
