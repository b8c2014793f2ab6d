import { data, redirect } from "react-router";
import { statusOf } from "~/http/result-status";
import { flashToast, type Toast } from "~/http/toast.server";
import type { FailureKind } from "~/lib/result";

/** A form page's state after a domain refusal, answered with the status the refusal's kind deserves. */
export function refusedForm<State>(state: State, result: { kind: FailureKind }) {
  return data(state, { status: statusOf(result) });
}

/** The redirect after a form that worked: to `to`, where a green toast says `key`. Throw it. */
export function redirectWithToast(to: string, key: Toast["key"]) {
  return redirect(to, { headers: { "Set-Cookie": flashToast({ key, type: "success" }) } });
}
