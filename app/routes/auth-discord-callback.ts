import { redirect } from "react-router";
import { discordCallbackQuerySchema } from "~/domain/discord/discord.schemas";
import { finishDiscord } from "~/domain/discord/discord-auth.server";
import { flashToast, headersWithCookies } from "~/http/toast.server";
import type { Route } from "./+types/auth-discord-callback";
import { requestContext } from "~/context.server";

// Where Discord sends the browser back (docs/discord.md): better-auth checks the state and exchanges
// the code; then the person is signed in (the dashboard), their Discord account linked (the account
// tab), or told why not on the page they came from.
export async function loader({ request, url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const parsed = discordCallbackQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) return redirect("/login?discord=failed");
  const result = await finishDiscord(context.services, {
    query: parsed.data,
    client: {
      ip: context.clientIp,
      userAgent: request.headers.get("user-agent"),
      cookie: request.headers.get("cookie"),
    },
    locale: context.locale,
    now: context.services.clock(),
  });
  if (!result.ok)
    return redirect(
      result.on === "account"
        ? `/dashboard/account?discord=${result.refusal}`
        : `/login?discord=${result.refusal}`,
    );
  if (result.kind === "linked") return redirect("/dashboard/account?discord=linked");
  const toast = flashToast({
    key: result.kind === "registered" ? "toast.registered" : "toast.loginSuccess",
    type: "success",
  });
  return redirect("/dashboard", { headers: headersWithCookies([...result.setCookies, toast]) });
}
