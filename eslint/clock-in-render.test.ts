import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, "eslint.config.js") });

/** The messages of the clock-in-render rule for `code` written in `filePath`. */
async function refusals(filePath: string, code: string) {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).filter(
    (message) => message.ruleId === "no-restricted-syntax" && message.message.includes("clock"),
  );
}

const STATUS = `import { displayStatus, expiryPassed } from "~/domain/hosting-services/hosting-services";`;

// [file, code, refused?]: reading the clock in the UI's modules, and what stays allowed.
const cases: [string, string, boolean][] = [
  ["app/features/x/y.tsx", `export const Y = () => <p>{new Date().getFullYear()}</p>;`, true],
  ["app/components/ui/y.tsx", `export const Y = () => <p>{Date.now()}</p>;`, true],
  [
    "app/features/x/y.tsx",
    `${STATUS}\nexport const Y = ({ at }: { at: string }) => <p>{String(expiryPassed(at))}</p>;`,
    true,
  ],
  [
    "app/components/ui/y.tsx",
    `${STATUS}\nexport const Y = ({ at }: { at: string }) => <p>{displayStatus("active", at)}</p>;`,
    true,
  ],
  // The loader's moment, given.
  [
    "app/features/x/y.tsx",
    `${STATUS}\nexport const Y = ({ at, now }: { at: string; now: string }) => <p>{displayStatus("active", at, new Date(now))}{String(expiryPassed(at, new Date(now)))}</p>;`,
    false,
  ],
  // Outside the UI's render modules: the server's code and the UI's tests may read the clock.
  ["app/domain/x/x.server.ts", `export const at = () => new Date();`, false],
  ["app/features/x/y.test.tsx", `export const at = Date.now();`, false],
];

describe("no clock read in the UI's render", () => {
  it.each(cases)("in %s: %s (refused: %s)", async (file, code, refused) => {
    const messages = await refusals(file, code);
    expect(messages.length > 0, messages.map((m) => m.message).join("\n")).toBe(refused);
  });
});
