import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import {
  CardCell,
  CardRow,
  HeadCell,
  ResponsiveTable,
} from "~/components/data-table/responsive-table";
import { Pager } from "~/components/data-table/simple-table";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { AUDIT_TARGET_TYPES, type AuditLogQuery } from "~/domain/audit/audit-log";
import { intlLocale } from "~/lib/money";
import {
  AuditActor,
  AuditTarget,
  useActionLabel,
  useTargetLabel,
  type AuditEntryView,
} from "./audit-entry";

const selectClass =
  "flex h-10 w-full rounded-md border bg-background px-3 py-2 text-base md:text-sm";

interface LogEntry extends AuditEntryView {
  before: string | null;
  after: string | null;
}

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
  const date = new Intl.DateTimeFormat(intlLocale(locale), {
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
      <Form
        method="get"
        role="search"
        aria-label={t("logs.filter")}
        className="grid gap-3 rounded-lg border bg-background p-3 sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] lg:items-end"
      >
        <div className="grid gap-1">
          <Label htmlFor="log-actor">{t("logs.actor")}</Label>
          <Input
            id="log-actor"
            name="actor"
            type="search"
            dir="ltr"
            defaultValue={query.actor ?? ""}
            placeholder={t("logs.actorPlaceholder")}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="log-action">{t("logs.action")}</Label>
          <select
            id="log-action"
            name="action"
            defaultValue={query.action ?? ""}
            className={selectClass}
          >
            <option value="">{t("logs.anyAction")}</option>
            {vocabulary.actions.map((action) => (
              <option key={action} value={action}>
                {actionLabel(action)}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="log-target-type">{t("logs.targetType")}</Label>
          <select
            id="log-target-type"
            name="targetType"
            defaultValue={query.targetType ?? ""}
            className={selectClass}
          >
            <option value="">{t("logs.anyTarget")}</option>
            {targetTypes.map((type) => (
              <option key={type} value={type}>
                {targetLabel(type)}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="log-target">{t("logs.target")}</Label>
          <Input
            id="log-target"
            name="target"
            type="search"
            defaultValue={query.target ?? ""}
            placeholder={t("logs.targetPlaceholder")}
          />
        </div>
        <div className="flex gap-2 sm:col-span-2 lg:col-span-1">
          <Button type="submit" variant="outline" className="flex-1">
            {t("logs.apply")}
          </Button>
          {filtered ? (
            <Button asChild variant="ghost">
              <Link to="?">{t("logs.clear")}</Link>
            </Button>
          ) : null}
        </div>
      </Form>

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
      <Pager
        page={query.page}
        hasMore={hasMore}
        href={href}
        labels={{ previous: t("pager.previous"), next: t("pager.next"), nav: t("pager.label") }}
      />
    </main>
  );
}
