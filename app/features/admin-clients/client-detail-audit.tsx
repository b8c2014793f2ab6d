import { Link } from "~/components/ui/link";
import { timeColumn, type Column } from "~/components/data-table/data-table";
import { column } from "~/components/data-table/column-presets";
import { EmailAddress } from "~/components/ui/email-address";
import { useKnownLabel } from "~/components/ui/known-label";
import { AUDIT_ACTION_LABELS, auditTargetLabel } from "~/domain/audit/audit-log";
import type { ClientAuditEntry } from "~/domain/clients/clients";
import { useTranslation } from "~/i18n/use-translation";

/** The audit vocabulary in words, as /admin/logs writes it: the code itself where there are none. */
function useAuditWords() {
  const label = useKnownLabel();
  return {
    action: (action: string) => label(AUDIT_ACTION_LABELS[action], action),
    target: (type: string) => label(auditTargetLabel(type), type),
  };
}

/**
 * The client page's audit section: when, what, on which of the client's things (a link to it), by whom
 * and why. A service is found on the services list searched by the client's `email`.
 */
export function useAuditColumns(moment: Intl.DateTimeFormat, email: string) {
  const { t } = useTranslation("admin-clients");
  const audit = useAuditWords();
  const targetOf = (entry: ClientAuditEntry) => {
    if (entry.targetType === "user") return <span>{t("audit.account")}</span>;
    const text = `${audit.target(entry.targetType)} #${entry.targetId}`;
    const to =
      entry.targetType === "order"
        ? `/admin/orders?id=${entry.targetId}`
        : entry.targetType === "ticket"
          ? `/admin/tickets/${entry.targetId}`
          : `/admin/services?q=${encodeURIComponent(email)}`;
    return (
      <Link to={to} className="text-primary underline hover:no-underline">
        {text}
      </Link>
    );
  };
  return [
    timeColumn({ id: "when", name: t("audit.when"), at: (entry) => entry.at, format: moment }),
    column("action", t("audit.action"), (entry) => (
      <span className="font-medium">{audit.action(entry.action)}</span>
    )),
    column("target", t("audit.target"), (entry) => <span>{targetOf(entry)}</span>),
    column("by", t("audit.by"), (entry) =>
      entry.actorEmail ? (
        <EmailAddress email={entry.actorEmail} />
      ) : (
        <span className="text-muted-foreground">{t("audit.system")}</span>
      ),
    ),
    column("reason", t("audit.reason"), (entry) => <span dir="auto">{entry.reason}</span>, {
      wide: true,
      present: (entry) => Boolean(entry.reason),
    }),
  ] satisfies Column<ClientAuditEntry>[];
}
