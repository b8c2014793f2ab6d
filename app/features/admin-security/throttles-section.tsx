import { useTranslation } from "~/i18n/use-translation";
import { byId, type Column, timeColumn } from "~/components/data-table/data-table";
import { actionsColumn, column } from "~/components/data-table/column-presets";
import { ListTable } from "~/components/data-table/list-page";
import { Badge } from "~/components/ui/badge";
import { ResultMessage } from "~/components/ui/result-message";
import { Moment } from "~/components/ui/moment";
import {
  LOGIN_EMAIL_FAILURE_CEILING,
  LOGIN_EMAIL_WINDOW_MINUTES,
  LOGIN_KNOWN_ADDRESS_DAYS,
  LOGIN_PAIR_FAILURE_LIMIT,
} from "~/domain/accounts/accounts";
import type { RateLimitRefusal, ThrottleEntry } from "~/domain/accounts/login-throttle";
import { THROTTLE_KIND_LABELS } from "~/domain/accounts/security-admin";
import { compactAddress } from "~/lib/ip-address";
import { mediumDateTime } from "~/lib/intl-format";
import { visibleText } from "~/lib/visible-text";
import {
  AddressText,
  ConfirmAction,
  resultValues,
  SecuritySection,
  type SecurityActionResult,
} from "./security-shared";

export type ThrottleView = ThrottleEntry;
export type RefusalView = RateLimitRefusal;

export function ThrottlesSection({
  throttles,
  refusals,
  addressLimit,
  locale,
  result,
}: {
  throttles: ThrottleView[];
  refusals: RefusalView[];
  addressLimit: number;
  locale: string;
  result?: SecurityActionResult;
}) {
  const { t } = useTranslation("admin-security");
  const date = mediumDateTime(locale, { seconds: true });
  const mine = result?.intent === "lift-block" ? result : undefined;
  const when = (iso: string) => <Moment at={iso} format={date} />;
  /** The email (or the address alone), and for a pair the address under it. */
  const who = (entry: ThrottleView) => {
    const email = entry.email === null ? null : visibleText(entry.email);
    const address = entry.address === null ? null : compactAddress(visibleText(entry.address));
    return { key: email ?? address ?? "", from: entry.kind === "pair" ? address : null };
  };
  const throttleColumns: Column<ThrottleView>[] = [
    column(
      "who",
      t("throttles.who"),
      (entry) => {
        const { key, from } = who(entry);
        return (
          <>
            <span className="block text-xs text-muted-foreground">
              {t(THROTTLE_KIND_LABELS[entry.kind])}
            </span>
            <span dir="ltr" className="block font-mono text-xs break-all">
              {key}
            </span>
            {from ? (
              <span className="block text-xs">
                {t("throttles.from")}{" "}
                <span dir="ltr" className="font-mono break-all">
                  {from}
                </span>
              </span>
            ) : null}
          </>
        );
      },
      { wide: true },
    ),
    column("state", t("throttles.state"), (entry) =>
      entry.active ? (
        <>
          <Badge tone="red" className="w-fit">
            {t("throttles.blocked")}
          </Badge>
          <time className="text-xs" dateTime={entry.block.endsAt}>
            {t("throttles.until", { time: date.format(new Date(entry.block.endsAt)) })}
          </time>
        </>
      ) : entry.block.liftedAt ? (
        <>
          <Badge tone="blue" className="w-fit">
            {t("throttles.lifted")}
          </Badge>
          <span className="text-xs">{when(entry.block.liftedAt)}</span>
        </>
      ) : (
        <>
          <Badge className="w-fit">{t("throttles.ended")}</Badge>
          <span className="text-xs">{when(entry.block.endsAt)}</span>
        </>
      ),
    ),
    timeColumn({
      id: "blockedAt",
      name: t("throttles.blockedAt"),
      at: (entry) => entry.block.startedAt,
      format: date,
    }),
    column(
      "attempts",
      t("throttles.attempts"),
      (entry) => <span className="font-mono">{entry.attempts}</span>,
      { headerClassName: "md:text-end", className: "md:text-end" },
    ),
    actionsColumn(
      t("throttles.actions"),
      (entry) => {
        if (!entry.active) return null;
        const { key, from } = who(entry);
        return (
          <ConfirmAction
            trigger={t("throttles.lift")}
            triggerLabel={
              from
                ? t("throttles.liftForPair", { email: key, address: from })
                : t("throttles.liftFor", { key })
            }
            title={t("throttles.liftTitle")}
            description={
              <>
                <p>{t("throttles.liftText")}</p>
                <p dir="ltr" className="mt-2 font-mono break-all">
                  {key}
                  {from ? ` ${from}` : null}
                </p>
              </>
            }
            confirm={t("throttles.liftConfirm")}
            fields={{ intent: "lift-block", kind: entry.kind, key: entry.key }}
            result={result}
          />
        );
      },
      { hideName: true, wide: true },
    ),
  ];
  const refusalColumns: Column<RefusalView>[] = [
    column("address", t("refusals.address"), (refusal) => (
      <AddressText address={refusal.address} />
    )),
    column("form", t("refusals.form"), (refusal) => (
      <span dir="ltr" className="font-mono text-xs">
        {refusal.path}
      </span>
    )),
    timeColumn({ id: "at", name: t("refusals.at"), at: (refusal) => refusal.at, format: date }),
    timeColumn({
      id: "until",
      name: t("refusals.until"),
      at: (refusal) => refusal.endsAt,
      format: date,
    }),
  ];
  return (
    <SecuritySection
      id="throttles"
      title={t("throttles.title")}
      headerClassName="grid gap-1"
      intro={
        <p className="text-sm text-muted-foreground">
          {t("throttles.rule", {
            addressLimit,
            pairLimit: LOGIN_PAIR_FAILURE_LIMIT,
            ceiling: LOGIN_EMAIL_FAILURE_CEILING,
            minutes: LOGIN_EMAIL_WINDOW_MINUTES,
            days: LOGIN_KNOWN_ADDRESS_DAYS,
          })}
        </p>
      }
    >
      {mine ? <ResultMessage result={mine} values={resultValues(mine)} /> : null}
      <ListTable
        table={{
          caption: t("throttles.title"),
          columns: throttleColumns,
          rows: throttles,
          rowKey: (entry) => `${entry.kind}:${entry.key}`,
        }}
        empty={t("throttles.empty")}
      />

      <div className="mt-2 grid gap-1">
        <h3 className="font-semibold">{t("refusals.title")}</h3>
        <p className="text-sm text-muted-foreground">{t("refusals.intro")}</p>
      </div>
      <ListTable
        table={{
          caption: t("refusals.title"),
          columns: refusalColumns,
          rows: refusals,
          rowKey: byId,
        }}
        empty={t("refusals.empty")}
      />
    </SecuritySection>
  );
}
