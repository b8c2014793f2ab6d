import { redirect } from "react-router";
import { signOut } from "~/domain/accounts/accounts.server";
import { flashToast, headersWithCookies } from "~/http/toast.server";
import type { Route } from "./+types/logout";
import { requestContext } from "~/context.server";

// Logging out changes state, so it only happens on POST; a GET just goes home.
export function loader() {
  return redirect("/");
}

export async function action({ request, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const cookies = await signOut(context.services, request.headers.get("cookie"));
  const toast = flashToast({ key: "toast.loggedOut", type: "success" });
  return redirect("/", { headers: headersWithCookies([...cookies, toast]) });
}
