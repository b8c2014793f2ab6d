import { redirect } from "react-router";
import { startDiscordSignIn } from "~/domain/discord/discord-auth.server";
import { headersWithCookies } from "~/http/toast.server";
import type { Route } from "./+types/auth-discord";
import { requestContext } from "~/context.server";

// "Sign in with Discord" (docs/discord.md): the sign-in and registration pages' buttons post here (no
// script needed, no field); the flow starts on the server and the browser goes on to Discord's
// authorize page.
export function loader() {
  return redirect("/login");
}

export async function action({ request, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const { env } = context.services;
  if (!env.DISCORD_CLIENT_ID || !env.DISCORD_CLIENT_SECRET) return redirect("/login");
  if (context.session) return redirect("/dashboard");
  const start = await startDiscordSignIn(context.services, {
    // Either page's button makes an account for someone new, while registration is open (read now).
    registrationOpen: context.settings.features.registration,
    client: {
      ip: context.clientIp,
      userAgent: request.headers.get("user-agent"),
      cookie: request.headers.get("cookie"),
    },
  });
  return redirect(start.url, { headers: headersWithCookies(start.setCookies) });
}
