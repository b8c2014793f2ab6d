import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import { clockInRenderBlock } from "./eslint/clock-in-render.js";
import { importCycleBlock } from "./eslint/cycles.js";
import { focusedTestsBlock } from "./eslint/focused-tests.js";
import { layerBlocks } from "./eslint/layers.js";
import { sinksBlock } from "./eslint/sinks.js";

export default tseslint.config(
  {
    ignores: [
      "build",
      ".react-router",
      "node_modules",
      "data",
      "test-results",
      "playwright-report",
      ".tmp",
      "coverage",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  // What each folder may import (docs/architecture.md): one block per row, and rows never share a file, so
  // no block replaces another's patterns.
  ...layerBlocks(),
  // No describe.only / it.only / test.only / test.describe.only in any test, in any environment.
  focusedTestsBlock(),
  // No clock read while the UI renders: a component hydrates later than the server rendered it.
  clockInRenderBlock(),
  // No value import cycle in app/, server/ or scripts/; type-only imports may close a loop.
  importCycleBlock(),
  // Only the domain events' reactions write the audit, the notices, the mail and the staff's posts.
  sinksBlock(),
);
