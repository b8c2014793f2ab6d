import { useTranslation } from "~/i18n/use-translation";
import { listFilters } from "~/components/data-table/filter-bar";
import { byId, type Column, timeColumn } from "~/components/data-table/data-table";
import { column } from "~/components/data-table/column-presets";
import { CodeBlock } from "~/components/ui/code-block";
import { FilteredListPage } from "~/components/data-table/list-page";
import { AUDIT_TARGET_TYPES, type AuditLogQuery } from "~/domain/audit/audit-log";
import { AuditActor, AuditTarget, useActionLabel, useTargetLabel } from "./audit-entry";
import { mediumDateTime } from "~/lib/intl-format";
import type { AuditLogRow } from "~/domain/audit/audit-log";
import { choicesOf } from "~/components/ui/form-card";

type LogEntry = AuditLogRow;

/** A stored JSON snapshot, indented for reading; text that is not JSON is shown as it is. */
function pretty(value: string | null): string {
  if (!value) return "";
  try {
    return JSON.stringify(JSON.parse(value), null, 2);
  } catch {
    return value;
  }
}

export function AuditLogPage({
  entries,
  hasMore,
  query,
  vocabulary,
  locale,
}: {
  entries: LogEntry[];
  hasMore: boolean;
  query: AuditLogQuery;
  vocabulary: { actions: string[]; targetTypes: string[] };
  locale: string;
}) {
  const { t } = useTranslation("admin");
  const actionLabel = useActionLabel();
  const targetLabel = useTargetLabel();
  const date = mediumDateTime(locale, { seconds: true });
  const targetTypes = [...new Set([...AUDIT_TARGET_TYPES, ...vocabulary.targetTypes])];
  const filters = listFilters(query, "log", [
    {
      kind: "search",
      name: "actor",
      label: t("logs.actor"),
      dir: "ltr",
      placeholder: t("logs.actorPlaceholder"),
    },
    {
      kind: "select",
      name: "action",
      label: t("logs.action"),
      anyLabel: t("logs.anyAction"),
      options: choicesOf(vocabulary.actions, actionLabel),
    },
    {
      kind: "select",
      name: "targetType",
      label: t("logs.targetType"),
      anyLabel: t("logs.anyTarget"),
      options: choicesOf(targetTypes, targetLabel),
    },
    {
      kind: "search",
      name: "target",
      label: t("logs.target"),
      placeholder: t("logs.targetPlaceholder"),
    },
  ]);
  const snapshot = (label: string, value: string) => (
    <div>
      <p className="font-semibold">{label}</p>
      <CodeBlock label={label} className="max-w-full rounded bg-muted p-2 md:max-w-xs">
        {pretty(value)}
      </CodeBlock>
    </div>
  );
  const columns: Column<LogEntry>[] = [
    timeColumn({ id: "when", name: t("logs.when"), at: (entry) => entry.at, format: date }),
    column("actor", t("logs.actor"), (entry) => (
      <span>
        <AuditActor entry={entry} />
      </span>
    )),
    column("action", t("logs.action"), (entry) => (
      <>
        <span className="font-medium">{actionLabel(entry.action)}</span>
        <span className="block font-mono text-xs text-muted-foreground" dir="ltr">
          {entry.action}
        </span>
      </>
    )),
    column("target", t("logs.target"), (entry) => (
      <span>
        <AuditTarget entry={entry} />
      </span>
    )),
    column("reason", t("logs.reason"), (entry) => <span>{entry.reason}</span>, {
      wide: true,
      present: (entry) => Boolean(entry.reason),
    }),
    {
      id: "details",
      header: t("logs.details"),
      wide: true,
      present: (entry) => Boolean(entry.before || entry.after),
      cell: (entry) => (
        <details>
          <summary className="cursor-pointer text-primary">{t("logs.show")}</summary>
          <div className="mt-2 grid gap-2 text-xs">
            {entry.before ? snapshot(t("logs.before"), entry.before) : null}
            {entry.after ? snapshot(t("logs.after"), entry.after) : null}
          </div>
        </details>
      ),
    },
  ];
  return (
    <FilteredListPage
      heading={{ title: t("nav.logs"), intro: t("logs.intro") }}
      filters={filters}
      filterBar={{
        label: t("logs.filter"),
        wideColumns: "lg:grid-cols-[repeat(4,minmax(0,1fr))_auto]",
      }}
      table={{ columns, rows: entries, rowKey: byId }}
      empty={t("logs.empty")}
      noMatch={t("logs.noMatch")}
      hasMore={hasMore}
    />
  );
}
