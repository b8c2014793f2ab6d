import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-card";
import {
  DISCORD_REFUSAL_MESSAGES,
  DISCORD_START_PATH,
  type DiscordRefusal,
} from "~/domain/discord/discord";
import { useMessage } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";

/**
 * "Sign in with Discord" on the sign-in and registration pages (docs/discord.md): a plain post to our
 * route, which starts the flow on the server and sends the browser to Discord, so it works on a page
 * without React. Shown only when the Discord application is configured; the refusal a return from
 * Discord brought (`refusal`) is said above it.
 */
export function DiscordSignIn({
  offered,
  refusal,
  intent,
}: {
  offered: boolean;
  refusal: DiscordRefusal | null;
  /** Which page it is on: the button's words. */
  intent: "sign-in" | "register";
}) {
  const { t } = useTranslation("discord");
  const message = useMessage();
  if (!offered && !refusal) return null;
  return (
    <div className="grid gap-3">
      {refusal ? <FormAlert>{message(DISCORD_REFUSAL_MESSAGES[refusal])}</FormAlert> : null}
      {offered ? (
        <form method="post" action={DISCORD_START_PATH} className="grid">
          <Button type="submit" variant="outline" className="w-full whitespace-normal">
            {intent === "register" ? t("auth.register") : t("auth.signIn")}
          </Button>
        </form>
      ) : null}
      {offered ? (
        <p className="text-center text-xs text-muted-foreground" aria-hidden="true">
          {t("auth.or")}
        </p>
      ) : null}
    </div>
  );
}
