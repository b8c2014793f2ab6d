// No clock read in the UI's render: the browser hydrates a page later than the server rendered it, so a
// component that reads the clock (a day, a year, "Expired") can hydrate to something else than the
// server wrote. A component takes the loader's moment instead (docs/ui-kit.md, "clock"). Plain JavaScript
// so that eslint.config.js can load it as is.

/** The UI's modules: the features and the kit, not their tests. */
export const renderFiles = ["app/features/**/*.tsx", "app/components/**/*.tsx"];
export const renderIgnores = ["**/*.test.tsx"];

const CLOCK =
  'A component must not read the clock while it renders (it hydrates later than the server rendered): take the loader\'s moment (docs/ui-kit.md, "clock").';
const NOW =
  'Pass the loader\'s moment as `now`: without it this reads the clock while the component renders (docs/ui-kit.md, "clock").';

/**
 * `new Date()` and `Date.now()`, and the pure domain functions whose `now` defaults to the clock
 * (`expiryPassed(expiresAt, now)`, `displayStatus(status, expiresAt, now)`) called without it.
 */
export const clockSelectors = [
  { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: CLOCK },
  {
    selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
    message: CLOCK,
  },
  {
    selector: "CallExpression[callee.name='expiryPassed'][arguments.length<2]",
    message: NOW,
  },
  {
    selector: "CallExpression[callee.name='displayStatus'][arguments.length<3]",
    message: NOW,
  },
];

/** The flat-config block that refuses them. */
export function clockInRenderBlock() {
  return {
    name: "no clock in render",
    files: renderFiles,
    ignores: renderIgnores,
    rules: { "no-restricted-syntax": ["error", ...clockSelectors] },
  };
}
