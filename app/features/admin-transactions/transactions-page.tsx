import { useTranslation } from "~/i18n/use-translation";
import { Form, Link } from "react-router";
import {
  CardCell,
  CardRow,
  HeadCell,
  ResponsiveTable,
} from "~/components/data-table/responsive-table";
import { Pager } from "~/components/data-table/simple-table";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { LEDGER_KIND_LABELS, LEDGER_KINDS, type LedgerKind } from "~/domain/coins/coins";
import type {
  LedgerReportQuery,
  LedgerReportRow,
  LedgerTotals,
} from "~/domain/coins/ledger-report";
import { formatCoins } from "~/lib/money";
import { cn } from "~/lib/utils";
import { dateTimeFormat, numberFormat } from "~/lib/intl-format";

const selectClass =
  "flex h-10 w-full rounded-md border bg-background px-3 py-2 text-base md:text-sm";

export type LedgerRowView = Omit<LedgerReportRow, "userId">;

function signed(cents: number, locale: string): string {
  const text = formatCoins(Math.abs(cents), locale);
  return cents > 0 ? `+${text}` : cents < 0 ? `−${text}` : text;
}

export function TransactionsPage({
  entries,
  hasMore,
  totals,
  query,
  locale,
}: {
  entries: LedgerRowView[];
  hasMore: boolean;
  totals: LedgerTotals;
  query: LedgerReportQuery;
  locale: string;
}) {
  const { t } = useTranslation("admin");
  const { t: tCoins } = useTranslation("coins");
  const kindLabel = (kind: string) =>
    kind in LEDGER_KIND_LABELS ? tCoins(LEDGER_KIND_LABELS[kind as LedgerKind]) : kind;
  const date = dateTimeFormat(locale, {
    dateStyle: "medium",
    timeStyle: "short",
  });
  const filtered = Boolean(query.customer || query.kind || query.from || query.to);
  const href = (page: number) => {
    const params = new URLSearchParams();
    for (const key of ["customer", "kind", "from", "to"] as const) {
      const value = query[key];
      if (value) params.set(key, value);
    }
    if (page > 1) params.set("page", String(page));
    return `?${params}`;
  };
  const count = numberFormat(locale);
  // Past the limit only the count is shown ("more than 1,000"): the sums would mean reading every row.
  const figures = totals.capped
    ? [
        {
          key: "entries",
          label: t("transactions.totalEntries"),
          value: t("transactions.moreThan", { limit: count.format(totals.entries) }),
        },
      ]
    : [
        {
          key: "entries",
          label: t("transactions.totalEntries"),
          value: count.format(totals.entries),
        },
        {
          key: "credits",
          label: t("transactions.totalCredits"),
          value: signed(totals.creditsCents, locale),
        },
        {
          key: "debits",
          label: t("transactions.totalDebits"),
          value: signed(totals.debitsCents, locale),
        },
        { key: "net", label: t("transactions.totalNet"), value: signed(totals.netCents, locale) },
      ];
  return (
    <main className="grid min-w-0 gap-4">
      <div className="grid gap-1">
        <h1 className="text-2xl font-bold">{t("nav.transactions")}</h1>
        <p className="text-sm text-muted-foreground">{t("transactions.intro")}</p>
      </div>
      <Form
        method="get"
        role="search"
        aria-label={t("transactions.filter")}
        className="grid gap-3 rounded-lg border bg-background p-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))_auto] lg:items-end"
      >
        <div className="grid gap-1 sm:col-span-2 lg:col-span-1">
          <Label htmlFor="tx-customer">{t("transactions.customer")}</Label>
          <Input
            id="tx-customer"
            name="customer"
            type="search"
            dir="ltr"
            defaultValue={query.customer ?? ""}
            placeholder={t("transactions.customerPlaceholder")}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="tx-kind">{t("transactions.kind")}</Label>
          <select id="tx-kind" name="kind" defaultValue={query.kind ?? ""} className={selectClass}>
            <option value="">{t("transactions.anyKind")}</option>
            {LEDGER_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {tCoins(LEDGER_KIND_LABELS[kind])}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="tx-from">{t("transactions.from")}</Label>
          <Input id="tx-from" name="from" type="date" defaultValue={query.from ?? ""} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="tx-to">{t("transactions.to")}</Label>
          <Input id="tx-to" name="to" type="date" defaultValue={query.to ?? ""} />
        </div>
        <div className="flex gap-2 sm:col-span-2 lg:col-span-1">
          <Button type="submit" variant="outline" className="flex-1">
            {t("transactions.apply")}
          </Button>
          {filtered ? (
            <Button asChild variant="ghost">
              <Link to="?">{t("transactions.clear")}</Link>
            </Button>
          ) : null}
        </div>
      </Form>

      <section aria-label={t("transactions.totals")}>
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          {figures.map((figure) => (
            <Card key={figure.key}>
              <CardContent className="grid gap-1 pt-4 pb-4">
                <dt className="text-xs text-muted-foreground">{figure.label}</dt>
                <dd className="text-xl font-bold" dir="ltr" data-testid={`total-${figure.key}`}>
                  {figure.value}
                </dd>
              </CardContent>
            </Card>
          ))}
        </dl>
        <p className="mt-2 text-xs text-muted-foreground">
          {totals.capped
            ? t("transactions.totalsCapped", { limit: count.format(totals.entries) })
            : t("transactions.totalsNote")}
        </p>
      </section>

      {entries.length === 0 ? (
        <p className="text-muted-foreground">
          {t(filtered ? "transactions.noMatch" : "transactions.empty")}
        </p>
      ) : (
        <ResponsiveTable
          caption={t("nav.transactions")}
          head={
            <>
              <HeadCell>{t("transactions.when")}</HeadCell>
              <HeadCell>{t("transactions.customer")}</HeadCell>
              <HeadCell>{t("transactions.kind")}</HeadCell>
              <HeadCell className="md:text-end">{t("transactions.amount")}</HeadCell>
              <HeadCell className="md:text-end">{t("transactions.balanceAfter")}</HeadCell>
              <HeadCell>{t("transactions.reason")}</HeadCell>
            </>
          }
        >
          {entries.map((entry) => (
            <CardRow key={entry.id}>
              <CardCell label={t("transactions.when")} className="md:whitespace-nowrap">
                <time dateTime={entry.at}>{date.format(new Date(entry.at))}</time>
              </CardCell>
              <CardCell label={t("transactions.customer")}>
                <span>{entry.userName}</span>
                <span className="block text-xs text-muted-foreground" dir="ltr">
                  {entry.userEmail}
                </span>
              </CardCell>
              <CardCell label={t("transactions.kind")}>
                <span>{kindLabel(entry.kind)}</span>
                {entry.orderId ? (
                  <Link
                    className="block text-xs text-primary hover:underline"
                    to={`/admin/orders?id=${entry.orderId}`}
                  >
                    {t("transactions.order", { id: entry.orderId })}
                  </Link>
                ) : null}
              </CardCell>
              <CardCell
                label={t("transactions.amount")}
                className={cn(
                  "font-mono md:text-end md:whitespace-nowrap",
                  entry.amountCents > 0 ? "text-green-700" : "text-destructive",
                )}
              >
                <span dir="ltr">{signed(entry.amountCents, locale)}</span>
              </CardCell>
              <CardCell
                label={t("transactions.balanceAfter")}
                className="font-mono md:text-end md:whitespace-nowrap"
              >
                <span dir="ltr">{formatCoins(entry.balanceAfterCents, locale)}</span>
              </CardCell>
              <CardCell label={t("transactions.reason")} wide>
                <span>{entry.reason}</span>
                {entry.actorEmail && entry.actorEmail !== entry.userEmail ? (
                  <span className="block text-xs text-muted-foreground">
                    {t("transactions.by", { email: entry.actorEmail })}
                  </span>
                ) : null}
              </CardCell>
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
