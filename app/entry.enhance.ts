// The one script of a page served without React (app/lib/hydration.ts, ADR 13): an anonymous visitor's
// public pages. It does in plain DOM what React does on a hydrated page, on the same server HTML: the
// header's menus and language switcher, the forms' busy states and their answers brought into view, the
// show/hide password buttons, the newsletter box, the toasts, on the home page the entry gate and the
// active-server counter, and on the sign-in pages the prefetch of the dashboard's scripts. Vite
// bundles it on its own (root.tsx imports its URL with ?worker&url): a few KiB, none of React's.
import { enhanceSiteFooter } from "./components/layout/site-footer.enhance";
import { enhanceSiteHeader } from "./components/layout/site-header.enhance";
import { startRuntimePrefetch } from "./components/runtime-prefetch.enhance";
import { enhanceBusyButtons } from "./components/ui/busy-button.enhance";
import { enhanceFormResults } from "./components/ui/form-result.enhance";
import { enhancePasswordInputs } from "./components/ui/password-input.enhance";
import { enhanceToasts } from "./components/ui/static-toaster.enhance";
import { startActiveServerCounter } from "./features/site/active-server-counter-view";
import { mountEntryGate } from "./features/site/entry-gate-view";

enhanceSiteHeader(document);
enhanceSiteFooter(document);
enhanceBusyButtons(document);
enhancePasswordInputs(document);
enhanceToasts(document);
enhanceFormResults(document);
const gate = document.querySelector<HTMLTemplateElement>("template[data-entry-gate]");
if (gate) mountEntryGate(gate);
const counter = document.querySelector<HTMLElement>("[data-active-servers]");
if (counter) startActiveServerCounter(counter);
startRuntimePrefetch(document);
// Tests wait for this, as they wait for React's on a hydrated page (tests/e2e/fixtures.ts).
document.documentElement.dataset.enhanced = "";
