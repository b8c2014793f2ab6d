import { EyeIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { viewAsStartPath } from "~/domain/staff/view-as";
import { useTranslation } from "~/i18n/use-translation";

/**
 * "View as this customer" (ADR 57): a post that starts the read-only view and opens the customer's
 * dashboard, as a whole page (the site's, with the banner). Sent once: a second click would land in the
 * view already started, where every post but leaving is refused.
 */
export function ViewAsButton({ customerId }: { customerId: string }) {
  const { t } = useTranslation("admin-staff");
  const [sent, setSent] = useState(false);
  return (
    <form
      method="post"
      action={viewAsStartPath(customerId)}
      className="grid max-w-xs gap-1"
      onSubmit={(event) => {
        if (sent) event.preventDefault();
        setSent(true);
      }}
    >
      <input type="hidden" name="intent" value="view-as" />
      <Button type="submit" variant="outline" className="w-fit" aria-describedby="view-as-hint">
        <EyeIcon aria-hidden />
        {t("viewAs.start")}
      </Button>
      <p id="view-as-hint" className="text-xs text-muted-foreground">
        {t("viewAs.startHint")}
      </p>
    </form>
  );
}
