// No focused tests anywhere: a `.only` left in a test file makes every other test of that file (or, in
// Playwright, of the whole run) silently skip, and the run still passes. Playwright's `forbidOnly` only
// guards runs with CI set, and vitest has no such switch for a local `npm test`; this rule holds in
// every environment, at lint time. Plain JavaScript so that eslint.config.js can load it as is.

/** Files holding tests: vitest's unit and integration tests, Playwright's specs and their helpers. */
export const focusedTestFiles = [
  "**/*.test.ts",
  "**/*.test.tsx",
  "**/*.spec.ts",
  "**/*.spec.tsx",
  "tests/**/*.ts",
  "tests/**/*.tsx",
];

const MESSAGE =
  "A focused test (.only) skips every other test and still passes: remove .only before committing.";

/**
 * `describe.only`, `it.only`, `test.only`, `suite.only` (with or without `.each` after them), and
 * Playwright's `test.describe.only` (also under `.serial` / `.parallel`).
 */
export const focusedTestSelectors = [
  "MemberExpression[property.name='only'][object.type='Identifier'][object.name=/^(describe|it|test|suite)$/]",
  "MemberExpression[property.name='only'][object.type='MemberExpression'][object.object.name='test'][object.property.name='describe']",
  "MemberExpression[property.name='only'][object.type='MemberExpression'][object.object.type='MemberExpression'][object.object.object.name='test'][object.object.property.name='describe']",
];

/** The flat-config block that refuses them. */
export function focusedTestsBlock() {
  return {
    name: "no focused tests",
    files: focusedTestFiles,
    rules: {
      "no-restricted-syntax": [
        "error",
        ...focusedTestSelectors.map((selector) => ({ selector, message: MESSAGE })),
      ],
    },
  };
}
