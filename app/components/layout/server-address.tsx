import { CopyButton } from "~/components/ui/copy-button";
import { useTranslation } from "~/i18n/use-translation";

/**
 * A game server's address with its Copy button, as the services tab and the server's page show it
 * (left to right in every language). `id` names the address for the button to copy.
 */
export function ServerAddressLine({ id, address }: { id: string; address: string }) {
  const { t } = useTranslation("services");
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-muted-foreground">{t("customer.panel.address")}</span>
      <code id={id} dir="ltr" className="rounded bg-muted px-2 py-1 font-mono">
        {address}
      </code>
      <CopyButton
        targetId={id}
        label={t("customer.panel.copy")}
        accessibleName={t("customer.panel.copyLabel", { address })}
        copied={t("customer.panel.copied")}
        failed={t("customer.panel.copyFailed")}
      />
    </div>
  );
}
