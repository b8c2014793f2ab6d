import { useTranslation } from "~/i18n/use-translation";
import { approvalDuration } from "~/lib/approval-duration";

/**
 * How long the team usually takes to approve what waits (an order, a top-up whose payment was sent):
 * the admin's setting, in hours or, from two whole days, in days.
 */
export function ApprovalTime({ hours }: { hours: number }) {
  const { t } = useTranslation("common");
  const { unit, count } = approvalDuration(hours);
  return (
    <p className="text-sm text-muted-foreground" data-approval-time>
      {unit === "days" ? t("approvalTime.days", { count }) : t("approvalTime.hours", { count })}
    </p>
  );
}
