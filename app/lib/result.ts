/**
 * What kind of refusal a domain result is, said where the result is made, so a route answers with the
 * status the refusal deserves (app/http/result-status.ts) without reading its message key. The kind says
 * what the failure is; it is never picked for the status it gives.
 *
 * - `invalid` (400): the request or a form field is wrong: a common password, a field that names a
 *   missing record (the form is what is wrong), a stale form.
 * - `unauthenticated` (401): not signed in, or wrong credentials.
 * - `forbidden` (403): not allowed, whatever the data: a feature switched off, an admin removing their
 *   own role.
 * - `notFound` (404): the record acted on is not there (or is not the user's).
 * - `conflict` (409): the present state refuses it: an email taken, an order already decided, a balance
 *   limit, the last admin.
 * - `limited` (429): too many attempts for now.
 */
export type FailureKind =
  "invalid" | "unauthenticated" | "forbidden" | "notFound" | "conflict" | "limited";
