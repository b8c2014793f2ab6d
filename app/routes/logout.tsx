import { redirect } from "react-router";
import { signOut } from "~/domain/accounts/accounts.server";
import { endViewAs } from "~/domain/staff/view-as.server";
import { flashToast, headersWithCookies } from "~/http/toast.server";
import type { Route } from "./+types/logout";
import { requestContext } from "~/context.server";

// Logging out changes state, so it only happens on POST; a GET just goes home.
export function loader() {
  return redirect("/");
}

export async function action({ request, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  // A member of the staff viewing the site as a customer: the view ends with the session, audited as
  // such (the session row and its view go with the sign-out).
  const session = context.session;
  const staff = session?.viewer ?? (session?.user.role === "admin" ? session.user : null);
  if (session && staff)
    await endViewAs(context.services.db, {
      sessionId: session.sessionId,
      actorId: staff.id,
      via: "signOut",
      now: context.services.clock(),
    });
  const cookies = await signOut(context.services, request.headers.get("cookie"));
  const toast = flashToast({ key: "toast.loggedOut", type: "success" });
  return redirect("/", { headers: headersWithCookies([...cookies, toast]) });
}
