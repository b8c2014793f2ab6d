import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, "eslint.config.js") });

/** The messages of the focused-test rule for `code` written in `filePath`. */
async function refusals(filePath: string, code: string) {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).filter(
    (message) => message.ruleId === "no-restricted-syntax" && message.message.includes(".only"),
  );
}

const VITEST = `import { describe, expect, it, test } from "vitest";`;
const PLAYWRIGHT = `import { expect, test } from "@playwright/test";`;

// [file, code, refused?]: every spelling of a focused test, in unit, integration and browser tests.
const cases: [string, string, boolean][] = [
  ["app/lib/x.test.ts", `${VITEST}\ndescribe.only("a", () => {});`, true],
  ["app/lib/x.test.ts", `${VITEST}\nit.only("a", () => {});`, true],
  ["app/lib/x.test.ts", `${VITEST}\ntest.only("a", () => {});`, true],
  ["app/lib/x.test.ts", `${VITEST}\nit.only.each([1])("a %s", () => {});`, true],
  ["app/lib/x.test.ts", `${VITEST}\ndescribe.only.each([1])("a %s", () => {});`, true],
  ["app/components/ui/x.test.tsx", `${VITEST}\nit.only("a", () => {});`, true],
  ["app/domain/orders/x.integration.test.ts", `${VITEST}\nit.only("a", () => {});`, true],
  ["tests/integration/x.test.ts", `${VITEST}\ndescribe.only("a", () => {});`, true],
  ["tests/e2e/x.spec.ts", `${PLAYWRIGHT}\ntest.only("a", async () => {});`, true],
  ["tests/e2e/x.spec.ts", `${PLAYWRIGHT}\ntest.describe.only("a", () => {});`, true],
  ["tests/e2e/x.spec.ts", `${PLAYWRIGHT}\ntest.describe.serial.only("a", () => {});`, true],
  ["eslint/x.test.ts", `${VITEST}\ntest.only("a", () => {});`, true],
  // What stays allowed: ordinary tests, skips, and `.only` on anything that is not a test.
  ["app/lib/x.test.ts", `${VITEST}\ndescribe("a", () => it("b", () => {}));`, false],
  ["app/lib/x.test.ts", `${VITEST}\nit.skip("a", () => {});`, false],
  ["tests/e2e/x.spec.ts", `${PLAYWRIGHT}\ntest.describe("a", () => {});`, false],
  ["app/lib/x.test.ts", `const options = { only: 1 };\nexport const n = options.only;`, false],
];

describe("no focused tests (.only)", () => {
  it.each(cases)("in %s: %s (refused: %s)", async (file, code, refused) => {
    const messages = await refusals(file, code);
    expect(messages.length > 0, messages.map((m) => m.message).join("\n")).toBe(refused);
  });

  it("does not depend on CI being set", async () => {
    const saved = process.env.CI;
    delete process.env.CI;
    try {
      const fresh = new ESLint({
        cwd: root,
        overrideConfigFile: path.join(root, "eslint.config.js"),
      });
      const [result] = await fresh.lintText(`${VITEST}\nit.only("a", () => {});\n`, {
        filePath: path.join(root, "app/lib/x.test.ts"),
      });
      expect(result?.messages.some((m) => m.ruleId === "no-restricted-syntax")).toBe(true);
    } finally {
      if (saved !== undefined) process.env.CI = saved;
    }
  });
});
