import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { TitledCard } from "~/components/ui/card";
import { ResultMessage } from "~/components/ui/result-message";
import {
  DISCORD_REFUSAL_MESSAGES,
  type DiscordLinkView,
  type DiscordRefusal,
} from "~/domain/discord/discord";
import type { MessageKey } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { useBusy } from "~/components/ui/use-busy";

export interface DiscordCardResult {
  ok: boolean;
  form: "discord";
  message: MessageKey;
}

/**
 * The account tab's Discord card (docs/discord.md): the linked Discord account, or the button that
 * links one (a whole-page post: the browser goes on to Discord and comes back here); unlinking is
 * offered only with a password, so that Discord is never the last way in that goes.
 */
export function DiscordCard({
  view,
  refusal,
  outcome,
  result,
}: {
  view: DiscordLinkView;
  /** What a return from Discord said (`?discord=`). */
  refusal: DiscordRefusal | null;
  outcome: "linked" | "unlinked" | null;
  result?: DiscordCardResult;
}) {
  const { t } = useTranslation("discord");
  const busy = useBusy();
  if (!view.available) return null;
  const shown: { ok: boolean; message: MessageKey } | null = result
    ? result
    : refusal
      ? { ok: false, message: DISCORD_REFUSAL_MESSAGES[refusal] }
      : outcome === "linked"
        ? { ok: true, message: "discord.account.linkedDone" }
        : null;
  return (
    <TitledCard title={t("account.title")}>
      <div className="grid gap-3 text-sm" data-testid="discord-card">
        {shown ? <ResultMessage result={shown} /> : null}
        <p className="text-muted-foreground">{t("account.intro")}</p>
        {view.linked ? (
          <>
            <p>
              {t("account.linked")} <bdi dir="ltr">{view.linked.discordId}</bdi>
            </p>
            {view.hasPassword ? (
              <Form method="post">
                <input type="hidden" name="intent" value="discord-unlink" />
                <Button type="submit" variant="outline" size="sm" disabled={busy}>
                  {t("account.unlink")}
                </Button>
              </Form>
            ) : (
              <p role="note">{t("account.onlyWayIn")}</p>
            )}
          </>
        ) : (
          <>
            <p>{t("account.notLinked")}</p>
            <Form method="post" reloadDocument>
              <input type="hidden" name="intent" value="discord-link" />
              <Button type="submit" size="sm" disabled={busy}>
                {t("account.link")}
              </Button>
            </Form>
          </>
        )}
      </div>
    </TitledCard>
  );
}
