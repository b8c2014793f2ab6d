import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importCycleBlock } from "./cycles.js";

const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, "eslint.config.js") });
const RULE = "cycles/no-value-cycle";

/** The cycle rule's messages for `code` linted as if it were `filePath` of the repository. */
async function refusals(linter: ESLint, base: string, filePath: string, code: string) {
  const [result] = await linter.lintText(`${code}\n`, { filePath: path.join(base, filePath) });
  return (result?.messages ?? []).filter((message) => message.ruleId === RULE);
}

describe("no value import cycle, with the project's config on its real files", () => {
  // Each case rewrites a real module so that it imports one that already imports it back:
  // button.tsx imports `cn` from app/lib/utils.ts, form-card.tsx imports button.tsx, server/index.ts
  // imports server/node-version.ts, scripts/compare-pages.ts imports scripts/bench/lib.ts.
  beforeAll(() => {
    const read = (file: string) => readFileSync(path.join(root, file), "utf8");
    expect(read("app/components/ui/button.tsx")).toContain(`import { cn } from "~/lib/utils";`);
    expect(read("app/components/ui/form-card.tsx")).toContain(`import { Button } from "./button";`);
    expect(read("server/index.ts")).toContain(`from "./node-version";`);
    expect(read("scripts/compare-pages.ts")).toContain(`from "./bench/lib";`);
  });
  // Loading the config and its plugins takes seconds on a busy machine: not in the first case's time.
  beforeAll(() => eslint.lintText("\n", { filePath: path.join(root, "app/lib/x.ts") }), 60_000);

  // [file, code, refused?]
  const cases: [string, string, boolean][] = [
    ["app/lib/utils.ts", `import { buttonVariants } from "~/components/ui/button";`, true],
    ["app/lib/utils.ts", `import { buttonVariants } from "../components/ui/button";`, true],
    ["app/lib/utils.ts", `import { buttonVariants } from "../components/ui/button.tsx";`, true],
    ["app/lib/utils.ts", `export { buttonVariants } from "~/components/ui/button";`, true],
    ["app/lib/utils.ts", `export * from "~/components/ui/button";`, true],
    ["app/lib/utils.ts", `import "~/components/ui/button";`, true],
    // Two steps: utils → form-card → button → utils.
    ["app/lib/utils.ts", `import { FormCard } from "~/components/ui/form-card";`, true],
    ["server/node-version.ts", `import { main } from "./index";`, true],
    ["scripts/bench/lib.ts", `import { main } from "../compare-pages";`, true],
    // Types bring no code at run time: every way of importing only types may close a loop.
    ["app/lib/utils.ts", `import type { ButtonProps } from "~/components/ui/button";`, false],
    ["app/lib/utils.ts", `import { type ButtonProps } from "~/components/ui/button";`, false],
    ["app/lib/utils.ts", `export type { ButtonProps } from "~/components/ui/button";`, false],
    ["app/lib/utils.ts", `export { type ButtonProps } from "~/components/ui/button";`, false],
    // A dynamic import runs after both modules have loaded.
    ["app/lib/utils.ts", `export const load = () => import("~/components/ui/button");`, false],
    // No way back: nothing that app/lib/money.ts imports reaches app/lib/utils.ts.
    ["app/lib/utils.ts", `import { formatEuros } from "~/lib/money";`, false],
  ];

  it.each(cases)("in %s: %s (refused: %s)", async (file, code, refused) => {
    const messages = await refusals(eslint, root, file, code);
    expect(messages.length > 0, messages.map((m) => m.message).join("\n")).toBe(refused);
  });

  it("names the whole chain", async () => {
    const [message] = await refusals(
      eslint,
      root,
      "app/lib/utils.ts",
      `import { FormCard } from "~/components/ui/form-card";`,
    );
    expect(message?.message).toContain(
      "app/lib/utils.ts → app/components/ui/form-card.tsx → app/components/ui/button.tsx → app/lib/utils.ts",
    );
  });
});

describe("no value import cycle, on modules whose loop closes on disk", () => {
  // The file being linted is read from ESLint's tree; the modules it reaches are read from disk. These
  // write the far side of each loop, so that both readers are tried on every kind of import.
  let base = "";
  let linter: ESLint;
  const write = (file: string, code: string) => {
    mkdirSync(path.dirname(path.join(base, file)), { recursive: true });
    writeFileSync(path.join(base, file), `${code}\n`);
  };

  beforeAll(() => {
    base = mkdtempSync(path.join(tmpdir(), "cycles-"));
    linter = new ESLint({
      cwd: base,
      overrideConfigFile: true,
      overrideConfig: [
        { files: ["**/*.{ts,tsx}"], languageOptions: { parser: tseslint.parser } },
        importCycleBlock(),
      ],
    });
    write("app/a.ts", `import { b } from "./b";\nexport const a = b;`);
    write("app/b.ts", `import { a } from "~/a";\nexport const b = 1;\nexport const c = () => a;`);
    write("app/types-back.ts", `import type { A } from "./a";\nexport type T = A;`);
    write("app/inline-types-back.ts", `import { type A } from "./a";\nexport type T = A;`);
    write("app/export-types-back.ts", `export type { A } from "./a";`);
    write("app/export-inline-back.ts", `export { type A } from "./a";`);
    write("app/export-back.ts", `export { a } from "./a";`);
    write("app/star-back.ts", `export * from "./a";`);
    write("app/side-effect-back.ts", `import "./a";`);
    write("app/default-and-type-back.ts", `import a, { type A } from "./a";\nexport const x = a;`);
    write("app/dynamic-back.ts", `export const load = () => import("./a");`);
    write("app/folder/index.tsx", `import { a } from "../a";\nexport const f = a;`);
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  // [module that a.ts imports, refused?]
  const cases: [string, boolean][] = [
    ["./b", true],
    ["./types-back", false],
    ["./inline-types-back", false],
    ["./export-types-back", false],
    ["./export-inline-back", false],
    ["./export-back", true],
    ["./star-back", true],
    ["./side-effect-back", true],
    ["./default-and-type-back", true],
    ["./dynamic-back", false],
    ["./folder", true],
  ];

  it.each(cases)("a.ts imports %s, which leads back (refused: %s)", async (imported, refused) => {
    const messages = await refusals(linter, base, "app/a.ts", `import { x } from "${imported}";`);
    expect(messages.length > 0, messages.map((m) => m.message).join("\n")).toBe(refused);
  });

  it("is not fooled by a chain that never comes back", async () => {
    write("app/c.ts", `import { d } from "./d";\nexport const c = d;`);
    write("app/d.ts", `import { b } from "./b";\nexport const d = b;`);
    expect(await refusals(linter, base, "app/c.ts", `import { d } from "./d";`)).toEqual([]);
  });
});
