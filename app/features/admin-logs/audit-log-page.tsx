import { useTranslation } from "~/i18n/use-translation";
import { FilterBar, FilterSearch, FilterSelect } from "~/components/data-table/filter-bar";
import {
  CardCell,
  CardRow,
  HeadCell,
  ResponsiveTable,
} from "~/components/data-table/responsive-table";
import { Pager } from "~/components/data-table/simple-table";
import { AUDIT_TARGET_TYPES, type AuditLogQuery } from "~/domain/audit/audit-log";
import { AuditActor, AuditTarget, useActionLabel, useTargetLabel } from "./audit-entry";
import { dateTimeFormat } from "~/lib/intl-format";
import type { AuditLogRow } from "~/domain/audit/audit-log";

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
  const date = dateTimeFormat(locale, {
    dateStyle: "medium",
    timeStyle: "medium",
  });
  const filtered = Boolean(query.actor || query.action || query.targetType || query.target);
  const href = (page: number) => {
    const params = new URLSearchParams();
    for (const key of ["actor", "action", "targetType", "target"] as const) {
      const value = query[key];
      if (value) params.set(key, value);
    }
    if (page > 1) params.set("page", String(page));
    return `?${params}`;
  };
  const targetTypes = [...new Set([...AUDIT_TARGET_TYPES, ...vocabulary.targetTypes])];
  return (
    <main className="grid min-w-0 gap-4">
      <div className="grid gap-1">
        <h1 className="text-2xl font-bold">{t("nav.logs")}</h1>
        <p className="text-sm text-muted-foreground">{t("logs.intro")}</p>
      </div>
      <FilterBar
        label={t("logs.filter")}
        applyLabel={t("logs.apply")}
        clearLabel={t("logs.clear")}
        filtered={filtered}
        className="sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] lg:items-end"
        actionsClassName="sm:col-span-2 lg:col-span-1"
      >
        <FilterSearch
          id="log-actor"
          label={t("logs.actor")}
          name="actor"
          dir="ltr"
          defaultValue={query.actor ?? ""}
          placeholder={t("logs.actorPlaceholder")}
        />
        <FilterSelect
          id="log-action"
          label={t("logs.action")}
          name="action"
          defaultValue={query.action ?? ""}
          anyLabel={t("logs.anyAction")}
          values={vocabulary.actions}
          labelOf={actionLabel}
        />
        <FilterSelect
          id="log-target-type"
          label={t("logs.targetType")}
          name="targetType"
          defaultValue={query.targetType ?? ""}
          anyLabel={t("logs.anyTarget")}
          values={targetTypes}
          labelOf={targetLabel}
        />
        <FilterSearch
          id="log-target"
          label={t("logs.target")}
          name="target"
          defaultValue={query.target ?? ""}
          placeholder={t("logs.targetPlaceholder")}
        />
      </FilterBar>

      {entries.length === 0 ? (
        <p className="text-muted-foreground">{t(filtered ? "logs.noMatch" : "logs.empty")}</p>
      ) : (
        <ResponsiveTable
          caption={t("nav.logs")}
          head={
            <>
              <HeadCell>{t("logs.when")}</HeadCell>
              <HeadCell>{t("logs.actor")}</HeadCell>
              <HeadCell>{t("logs.action")}</HeadCell>
              <HeadCell>{t("logs.target")}</HeadCell>
              <HeadCell>{t("logs.reason")}</HeadCell>
              <HeadCell>{t("logs.details")}</HeadCell>
            </>
          }
        >
          {entries.map((entry) => (
            <CardRow key={entry.id}>
              <CardCell label={t("logs.when")} className="md:whitespace-nowrap">
                <time dateTime={entry.at}>{date.format(new Date(entry.at))}</time>
              </CardCell>
              <CardCell label={t("logs.actor")}>
                <span>
                  <AuditActor entry={entry} />
                </span>
              </CardCell>
              <CardCell label={t("logs.action")}>
                <span className="font-medium">{actionLabel(entry.action)}</span>
                <span className="block font-mono text-xs text-muted-foreground" dir="ltr">
                  {entry.action}
                </span>
              </CardCell>
              <CardCell label={t("logs.target")}>
                <span>
                  <AuditTarget entry={entry} />
                </span>
              </CardCell>
              {entry.reason ? (
                <CardCell label={t("logs.reason")} wide>
                  <span>{entry.reason}</span>
                </CardCell>
              ) : (
                <td className="hidden md:table-cell" />
              )}
              {entry.before || entry.after ? (
                <CardCell wide>
                  <details>
                    <summary className="cursor-pointer text-primary">{t("logs.show")}</summary>
                    <div className="mt-2 grid gap-2 text-xs">
                      {entry.before ? (
                        <div>
                          <p className="font-semibold">{t("logs.before")}</p>
                          <pre
                            className="max-w-full overflow-x-auto rounded bg-muted p-2 md:max-w-xs"
                            dir="ltr"
                          >
                            {pretty(entry.before)}
                          </pre>
                        </div>
                      ) : null}
                      {entry.after ? (
                        <div>
                          <p className="font-semibold">{t("logs.after")}</p>
                          <pre
                            className="max-w-full overflow-x-auto rounded bg-muted p-2 md:max-w-xs"
                            dir="ltr"
                          >
                            {pretty(entry.after)}
                          </pre>
                        </div>
                      ) : null}
                    </div>
                  </details>
                </CardCell>
              ) : (
                <td className="hidden md:table-cell" />
              )}
            </CardRow>
          ))}
        </ResponsiveTable>
      )}
      <Pager page={query.page} hasMore={hasMore} href={href} />
    </main>
  );
}
