import type { ShouldRevalidateFunction } from "react-router";

// A refusal (4xx) skips the reload by default; a conflict (409: a renewal whose price changed since it
// was shown, a service that can no longer renew) reloads the tab and the cards, so the confirmation shows
// the price and the state as they are now instead of the stale ones the refused form carried.
export const revalidateOnConflict: ShouldRevalidateFunction = ({
  actionStatus,
  defaultShouldRevalidate,
}) => actionStatus === 409 || defaultShouldRevalidate;
