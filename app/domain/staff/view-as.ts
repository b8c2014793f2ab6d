/** Where the banner's "Leave this view" posts (app/routes/view-as-leave.ts). */
export const VIEW_AS_LEAVE_PATH = "/view-as/leave";

/** Where the client page's "View as this customer" posts (app/routes/admin/client-view-as.ts). */
export function viewAsStartPath(customerId: string): string {
  return `/admin/clients/${encodeURIComponent(customerId)}/view-as`;
}

/** Where a member of the staff lands once the view starts: the customer's own dashboard. */
export const VIEW_AS_LANDING = "/dashboard";

/**
 * What a post refused while viewing answers with (403): the customer whose view it is, for the page that
 * says nothing was changed.
 */
export interface ViewAsRefusal {
  refused: "viewAs";
  name: string;
  email: string;
}

export function isViewAsRefusal(value: unknown): value is ViewAsRefusal {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { refused?: unknown }).refused === "viewAs"
  );
}
