import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { ClientLink } from "~/components/ui/client-link";
import { useKnownLabel } from "~/components/ui/known-label";
import { AUDIT_ACTION_LABELS, auditTargetLabel, type AuditLogRow } from "~/domain/audit/audit-log";
import { mediumDateTime } from "~/lib/intl-format";

export type AuditEntryView = Omit<AuditLogRow, "before" | "after">;

/** An action code ("coins.adjust") in words; a code without a catalogue entry is shown as it is. */
export function useActionLabel() {
  const label = useKnownLabel();
  return (action: string) => label(AUDIT_ACTION_LABELS[action], action);
}

/** A target type ("hosting_service") in words; an unknown one is shown as it is. */
export function useTargetLabel() {
  const label = useKnownLabel();
  return (type: string) => label(auditTargetLabel(type), type);
}

/** Who acted: the admin's email, or "System" for changes made without a signed-in admin. */
export function AuditActor({ entry }: { entry: AuditEntryView }) {
  const { t } = useTranslation("admin");
  if (!entry.actorEmail) return <span className="text-muted-foreground">{t("audit.system")}</span>;
  return <span dir="ltr">{entry.actorEmail}</span>;
}

/** What was acted on, linked to the admin page that shows it. */
export function AuditTarget({ entry }: { entry: AuditEntryView }) {
  const label = useTargetLabel()(entry.targetType);
  if (entry.targetType === "user") {
    const text = entry.targetName ?? `${label} ${entry.targetId}`;
    // The client page shows a deleted account too (its orders and ledger stay); a name means the row is there.
    return entry.targetName ? (
      <ClientLink userId={entry.targetId} className="font-normal underline hover:no-underline">
        {text}
      </ClientLink>
    ) : (
      <span>{text}</span>
    );
  }
  const links: Record<string, string> = {
    order: `/admin/orders?id=${entry.targetId}`,
    ticket: `/admin/tickets/${entry.targetId}`,
    hosting_service: "/admin/services",
    announcement: "/admin/announcements",
    product: `/admin/products?edit=${entry.targetId}`,
    voucher: `/admin/promotions?edit=${entry.targetId}`,
  };
  const text = `${label} #${entry.targetId}`;
  const to = links[entry.targetType];
  return to ? (
    <Link className="text-primary underline hover:no-underline" to={to}>
      {text}
    </Link>
  ) : (
    <span>{text}</span>
  );
}

/** The dashboard's recent activity: who did what to what, newest first. */
export function ActivityList({ entries, locale }: { entries: AuditEntryView[]; locale: string }) {
  const { t } = useTranslation("admin");
  const actionLabel = useActionLabel();
  const date = mediumDateTime(locale);
  if (entries.length === 0)
    return <p className="text-muted-foreground">{t("dashboard.noActivity")}</p>;
  return (
    <>
      <ul className="divide-y text-sm">
        {entries.map((entry) => (
          <li key={entry.id} className="grid gap-0.5 py-2">
            <p className="flex flex-wrap justify-between gap-x-3">
              <span className="font-medium">{actionLabel(entry.action)}</span>
              <time dateTime={entry.at} className="whitespace-nowrap text-muted-foreground">
                {date.format(new Date(entry.at))}
              </time>
            </p>
            <p className="break-words text-muted-foreground">
              <AuditTarget entry={entry} /> · <AuditActor entry={entry} />
              {entry.reason ? <> · {entry.reason}</> : null}
            </p>
          </li>
        ))}
      </ul>
      <Link to="/admin/logs" className="mt-3 inline-block text-sm text-primary hover:underline">
        {t("dashboard.allActivity")}
      </Link>
    </>
  );
}
