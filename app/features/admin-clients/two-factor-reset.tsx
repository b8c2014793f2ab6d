import { ShieldOffIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { ConfirmDialogContent } from "~/components/ui/confirm-dialog";
import { Dialog, DialogTrigger } from "~/components/ui/dialog";
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import { ADMIN_TWO_FACTOR_SETUP_PATH } from "~/domain/accounts/accounts";
import type { ClientProfile } from "~/domain/clients/clients";
import { useTranslation } from "~/i18n/use-translation";

/**
 * The client's two-factor sign-in: on or off and, when it is on, a button that turns it off
 * after a confirmation (the client is told by email). Not for the admin's own account, which they
 * manage on their own page (/admin/account), and nothing for a deleted account.
 */
export function TwoFactorSection({
  profile,
  own,
  result,
}: {
  profile: ClientProfile;
  own: boolean;
  /** What the last reset said, when it was this form's. */
  result?: ActionResult;
}) {
  const { t } = useTranslation("admin-clients");
  const [open, setOpen] = useState(false);
  const on = profile.twoFactorEnabled;
  return (
    <div className="grid gap-2" data-testid="client-two-factor">
      <p>{on ? t("twoFactor.on") : t("twoFactor.off")}</p>
      {result ? <ResultMessage result={result} /> : null}
      {own ? (
        <p>
          <a
            href={ADMIN_TWO_FACTOR_SETUP_PATH}
            className="text-primary underline hover:no-underline"
          >
            {t("twoFactor.own")}
          </a>
        </p>
      ) : on && profile.status !== "deleted" ? (
        <Dialog open={open} onOpenChange={setOpen}>
          <DialogTrigger asChild>
            <Button variant="outline" size="sm" className="w-fit text-destructive">
              <ShieldOffIcon aria-hidden />
              {t("twoFactor.reset")}
            </Button>
          </DialogTrigger>
          <ConfirmDialogContent
            labels={{
              title: t("twoFactor.resetTitle", { name: profile.name }),
              confirm: t("twoFactor.resetConfirm"),
              cancel: t("twoFactor.cancel"),
              close: t("twoFactor.close"),
            }}
            description={t("twoFactor.resetText", { email: profile.email })}
            fields={{ intent: "reset-two-factor" }}
            onSubmit={() => setOpen(false)}
          />
        </Dialog>
      ) : null}
    </div>
  );
}
