import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import {
  CANCELLATION_BADGE_LABELS,
  serviceCancelPath,
  type CancellationBadge,
} from "~/domain/hosting-services/cancellation";

/**
 * A service's line on the services tab, about cancelling it: its open request ("Ends at expiry",
 * "Refund requested") and, while it is active, the way to its cancel page.
 */
export function CancelLink({
  service,
  badge,
}: {
  service: { id: number; name: string; status: string };
  badge: CancellationBadge | undefined;
}) {
  const { t } = useTranslation("services");
  return (
    <>
      {badge ? <Badge tone="yellow">{t(CANCELLATION_BADGE_LABELS[badge])}</Badge> : null}
      {service.status === "active" ? (
        <Link
          to={serviceCancelPath(service.id)}
          aria-label={t("cancel.linkLabel", { service: service.name })}
          className="text-sm"
        >
          {t("cancel.link")}
        </Link>
      ) : null}
    </>
  );
}
