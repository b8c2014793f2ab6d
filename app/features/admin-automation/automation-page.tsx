import type { ReactNode } from "react";
import { DataTable, type Column } from "~/components/data-table/data-table";
import { ListTable } from "~/components/data-table/list-page";
import { Pager } from "~/components/data-table/pager";
import { actionsColumn, badgeColumn, column } from "~/components/data-table/column-presets";
import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Field, fieldAria } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { IntentButton } from "~/components/ui/intent-button";
import { useKnownLabel } from "~/components/ui/known-label";
import { PageHeading } from "~/components/ui/page-heading";
import { CodeBlock } from "~/components/ui/code-block";
import { StatusMessage } from "~/components/ui/status-message";
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import { Moment } from "~/components/ui/moment";
import {
  COUNT_LABELS,
  didNothing,
  PROBLEM_STATE_LABELS,
  RUN_STATUS_LABELS,
  SCHEDULE_LABELS,
  type AutomationQuery,
  type ProblemJobView,
  type RunView,
  type ScheduleView,
} from "~/domain/jobs/jobs";
import { useTranslation } from "~/i18n/use-translation";
import { mediumDateTime, numberFormat } from "~/lib/intl-format";
import { DRIFT_LABELS, type PanelDriftView } from "~/domain/provisioning/panel-plan";

export interface AutomationActionResult extends Pick<ActionResult, "ok" | "message"> {
  /** The schedule a "Run now" named, or the job a Retry or Discard acted on. */
  schedule?: string;
  id?: number;
}

const RUN_TONES = { running: "blue", succeeded: "green", failed: "red" } as const;
const STATE_TONES = { failed: "yellow", dead: "red" } as const;

/** The words of the automation page, with how it writes dates and figures. */
function useWords(locale: string) {
  const { t } = useTranslation("admin");
  // The schedules' and counts' words are keys the domain holds as data: a name without one is shown as it is.
  const label = useKnownLabel("admin");
  const date = mediumDateTime(locale, { seconds: true });
  const figures = numberFormat(locale);
  const when = (iso: string | null) => (iso ? <Moment at={iso} format={date} /> : null);
  const scheduleName = (name: string) => label(SCHEDULE_LABELS[name], name);
  const counts = (values: Record<string, number>) => {
    if (didNothing(values)) return t("automation.nothingCounted");
    return Object.entries(values)
      .map(([name, n]) =>
        t("automation.count", { label: label(COUNT_LABELS[name], name), count: figures.format(n) }),
      )
      .join(", ");
  };
  return { t, when, scheduleName, counts };
}

function RunStatus({ run }: { run: RunView }) {
  const { t } = useTranslation("admin");
  return (
    <span>
      <Badge tone={RUN_TONES[run.status]}>{t(RUN_STATUS_LABELS[run.status])}</Badge>
    </span>
  );
}

/** A titled part of the page, named by its heading for assistive technology. */
function Section({
  id,
  title,
  className,
  children,
}: {
  id: string;
  title: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={`grid ${className}`}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A section whose table of rows (each with an id) is named by the heading; a line says when it is empty. */
function ListSection<Row extends { id: number }>({
  id,
  title,
  empty,
  rows,
  columns,
  children,
}: {
  id: string;
  title: string;
  empty: string;
  rows: Row[];
  columns: Column<Row>[];
  children?: ReactNode;
}) {
  return (
    <Section id={id} title={title} className="gap-3">
      <ListTable empty={empty} table={{ caption: title, rows, rowKey: (row) => row.id, columns }} />
      {children}
    </Section>
  );
}

/** A form that saves one setting: the time zone or the alerts webhook. */
function SettingForm({
  intent,
  id,
  label,
  hint,
  save,
  input,
}: {
  intent: string;
  id: string;
  label: string;
  hint: string;
  save: string;
  input: { name: string; defaultValue: string; className: string; type?: string };
}) {
  return (
    <Form method="post" className="flex flex-wrap items-end gap-2" noValidate>
      <input type="hidden" name="intent" value={intent} />
      <Field id={id} label={label} hint={hint}>
        <Input
          id={id}
          dir="ltr"
          autoComplete="off"
          {...input}
          {...fieldAria(id, undefined, { hint: true })}
        />
      </Field>
      <Button type="submit" variant="outline">
        {save}
      </Button>
    </Form>
  );
}

export function AutomationPage({
  schedules,
  runs,
  hasMore,
  problemJobs,
  panelDrift,
  query,
  timeZone,
  discordWebhook,
  webhookDisabled,
  locale,
  result,
}: {
  schedules: ScheduleView[];
  runs: RunView[];
  hasMore: boolean;
  problemJobs: ProblemJobView[];
  panelDrift: PanelDriftView[];
  query: AutomationQuery;
  timeZone: string;
  discordWebhook: string;
  webhookDisabled: { at: string; reason: string } | null;
  locale: string;
  result?: AutomationActionResult;
}) {
  const { t, when, scheduleName, counts } = useWords(locale);
  const longDate = mediumDateTime(locale);
  return (
    <main className="grid min-w-0 gap-6">
      <PageHeading title={t("nav.automation")} intro={t("automation.intro", { timeZone })} />

      {result ? (
        <ResultMessage
          result={result}
          values={{
            name: result.schedule ? scheduleName(result.schedule) : "",
            id: result.id ?? "",
          }}
        />
      ) : null}

      <Section id="automation-time-zone" title={t("automation.timeZone.title")} className="gap-2">
        <SettingForm
          intent="time-zone"
          id="time-zone"
          label={t("automation.timeZone.label")}
          hint={t("automation.timeZone.hint")}
          save={t("automation.timeZone.save")}
          input={{ name: "timeZone", defaultValue: timeZone, className: "w-64" }}
        />
      </Section>

      <Section id="automation-alerts" title={t("automation.alertsForm.title")} className="gap-2">
        {webhookDisabled ? (
          <StatusMessage ok={false}>
            {t("automation.alertsForm.disabled", {
              date: longDate.format(new Date(webhookDisabled.at)),
              reason: webhookDisabled.reason,
            })}
          </StatusMessage>
        ) : null}
        <SettingForm
          intent="alerts"
          id="discord-webhook"
          label={t("automation.alertsForm.label")}
          hint={t("automation.alertsForm.hint")}
          save={t("automation.alertsForm.save")}
          input={{
            name: "discordWebhook",
            type: "url",
            defaultValue: discordWebhook,
            // Full width on a phone: a fixed 384 px field made the page 10 px wider than a 390 px screen.
            className: "w-full sm:w-96",
          }}
        />
      </Section>

      <Section id="automation-schedules" title={t("automation.schedulesTitle")} className="gap-3">
        <DataTable
          caption={t("automation.schedulesTitle")}
          rows={schedules}
          rowKey={(schedule) => schedule.name}
          columns={[
            column<ScheduleView>("schedule", t("automation.columns.schedule"), (schedule) => (
              <span className="grid">
                <span className="font-medium">{scheduleName(schedule.name)}</span>
                <code className="text-xs text-muted-foreground" dir="ltr">
                  {schedule.cron}
                </code>
              </span>
            )),
            column<ScheduleView>("lastRun", t("automation.columns.lastRun"), (schedule) =>
              schedule.lastRun ? (
                <span className="grid gap-1">
                  {when(schedule.lastRun.startedAt)}
                  <RunStatus run={schedule.lastRun} />
                </span>
              ) : (
                t("automation.never")
              ),
            ),
            column<ScheduleView>(
              "nextRun",
              t("automation.columns.nextRun"),
              (schedule) => when(schedule.nextRunAt) ?? t("automation.notPlanned"),
            ),
            actionsColumn<ScheduleView>(t("automation.columns.actions"), (schedule) => (
              <IntentButton
                intent="run-now"
                fields={{ schedule: schedule.name }}
                variant="outline"
                accessibleName={t("automation.runNowFor", { name: scheduleName(schedule.name) })}
              >
                {t("automation.runNow")}
              </IntentButton>
            )),
          ]}
        />
      </Section>

      <ListSection
        id="automation-problems"
        title={t("automation.problemsTitle")}
        empty={t("automation.noProblems")}
        rows={problemJobs}
        columns={[
          column<ProblemJobView>("job", t("automation.columns.job"), (job) => (
            <span className="grid">
              <code dir="ltr">{job.type}</code>
              <span className="text-xs text-muted-foreground">#{job.id}</span>
            </span>
          )),
          badgeColumn<ProblemJobView>(
            "state",
            t("automation.columns.state"),
            (job) => ({
              tone: STATE_TONES[job.state],
              text: t(PROBLEM_STATE_LABELS[job.state]),
            }),
            { label: true },
          ),
          column<ProblemJobView>("attempts", t("automation.columns.attempts"), (job) => (
            <span className="grid">
              {t("automation.attemptsOf", { attempts: job.attempts, max: job.maxAttempts })}
              {job.state === "failed" ? (
                <span className="text-xs text-muted-foreground">
                  {t("automation.retryAt")} {when(job.runAt)}
                </span>
              ) : null}
            </span>
          )),
          column<ProblemJobView>(
            "error",
            t("automation.columns.error"),
            (job) => (
              <CodeBlock
                label={t("automation.errorOf", { id: job.id })}
                className="max-h-40 text-xs whitespace-pre-wrap wrap-anywhere"
                data-testid="job-error"
              >
                {job.lastError}
              </CodeBlock>
            ),
            { wide: true },
          ),
          column<ProblemJobView>(
            "payload",
            t("automation.columns.payload"),
            (job) => (
              <code className="text-xs wrap-anywhere" dir="ltr">
                {job.payload}
              </code>
            ),
            { wide: true },
          ),
          actionsColumn<ProblemJobView>(t("automation.columns.actions"), (job) => (
            <span className="flex flex-wrap gap-2">
              <IntentButton
                intent="retry"
                fields={{ id: job.id }}
                accessibleName={t("automation.retryFor", { id: job.id })}
              >
                {t("automation.retry")}
              </IntentButton>
              <IntentButton
                intent="discard"
                fields={{ id: job.id }}
                variant="destructive"
                confirmText={t("automation.discardConfirm", { id: job.id })}
                accessibleName={t("automation.discardFor", { id: job.id })}
              >
                {t("automation.discard")}
              </IntentButton>
            </span>
          )),
        ]}
      />

      <ListSection
        id="automation-panel-drift"
        title={t("automation.drift.title")}
        empty={t("automation.drift.none")}
        rows={panelDrift}
        columns={[
          column<PanelDriftView>("kind", t("automation.drift.kind"), (drift) =>
            t(DRIFT_LABELS[drift.kind]),
          ),
          column<PanelDriftView>("service", t("automation.drift.service"), (drift) =>
            drift.serviceId === null ? (
              "—"
            ) : (
              <Link
                className="text-primary hover:underline"
                to={`/admin/services/${drift.serviceId}/panel`}
              >
                #{drift.serviceId}
              </Link>
            ),
          ),
          column<PanelDriftView>("server", t("automation.drift.panelServer"), (drift) =>
            drift.panelServerId === null ? "—" : <span dir="ltr">{drift.panelServerId}</span>,
          ),
          column<PanelDriftView>("found", t("automation.drift.foundAt"), (drift) =>
            when(drift.foundAt),
          ),
        ]}
      >
        <p className="text-sm text-muted-foreground">{t("automation.drift.intro")}</p>
      </ListSection>

      <ListSection
        id="automation-runs"
        title={t("automation.runsTitle")}
        empty={t("automation.noRuns")}
        rows={runs}
        columns={[
          column<RunView>("schedule", t("automation.columns.schedule"), (run) =>
            scheduleName(run.schedule),
          ),
          column<RunView>("started", t("automation.columns.started"), (run) => when(run.startedAt)),
          column<RunView>(
            "finished",
            t("automation.columns.finished"),
            (run) => when(run.finishedAt) ?? "—",
          ),
          column<RunView>("status", t("automation.columns.status"), (run) => (
            <RunStatus run={run} />
          )),
          column<RunView>(
            "counts",
            t("automation.columns.counts"),
            (run) =>
              run.status === "failed" ? (
                <span className="grid gap-1">
                  <span>{t("automation.attemptN", { attempt: run.attempt })}</span>
                  <span className="text-xs wrap-anywhere text-red-800" dir="ltr">
                    {run.error?.split("\n")[0]}
                  </span>
                </span>
              ) : (
                counts(run.counts)
              ),
            { wide: true },
          ),
        ]}
      >
        <Pager
          page={query.page}
          hasMore={hasMore}
          href={(page) => (page > 1 ? `?page=${page}` : "?")}
        />
      </ListSection>
    </main>
  );
}
