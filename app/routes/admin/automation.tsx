import { automationActionSchema, automationQuerySchema } from "~/domain/jobs/jobs.schemas";
import {
  discardJob,
  loadAutomationPage,
  retryJob,
  runScheduleNow,
} from "~/domain/jobs/automation.server";
import {
  AutomationPage,
  type AutomationActionResult,
} from "~/features/admin-automation/automation-page";
import { lastWebhookDisabled } from "~/domain/jobs/alerts.server";
import { saveSettingsForm } from "~/domain/settings/settings-form.server";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import { requestContext } from "~/context.server";
import type { Route } from "./+types/automation";

// The background worker for staff: schedules (Run now), the run log, failed and dead jobs (Retry,
// Discard), as docs/automation.md describes them.
export const loader = adminLoader(requestContext, {
  title: "admin.nav.automation",
  permission: "automation.run",
  query: automationQuerySchema,
  load: async ({ db, query, context: { settings } }) => {
    const [page, webhookDisabled] = await Promise.all([
      loadAutomationPage(db, { page: query }),
      lastWebhookDisabled(db),
    ]);
    return {
      ...page,
      timeZone: settings.general.timeZone,
      discordWebhook: settings.alerts.discordWebhook,
      // Said only while no webhook is set: an admin who set a new one has dealt with it.
      webhookDisabled: settings.alerts.discordWebhook ? null : webhookDisabled,
    };
  },
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

// What saving each of the page's settings says: when it changed something, and when it did not.
const SETTING_SAVED = {
  alerts: ["admin.automation.done.alertsSaved", "admin.automation.done.alertsUnchanged"],
  "time-zone": ["admin.automation.done.timeZoneSaved", "admin.automation.done.timeZoneUnchanged"],
} as const;

export const action = adminAction(
  requestContext,
  { "*": "automation.run", "time-zone": "settings.manage", alerts: "settings.manage" },
  automationActionSchema,
  "admin.automation.errors.unknownAction",
  async ({ db, admin, input, context }) => {
    if (input.intent === "alerts" || input.intent === "time-zone") {
      const saved = await saveSettingsForm(
        context.services,
        input.intent === "alerts"
          ? { intent: "alerts", discordWebhook: input.discordWebhook, actorId: admin.id }
          : { intent: "timeZone", timeZone: input.timeZone, actorId: admin.id },
      );
      const [changed, unchanged] = SETTING_SAVED[input.intent];
      return {
        ok: true,
        message: saved.changed.length > 0 ? changed : unchanged,
      } satisfies AutomationActionResult;
    }
    if (input.intent === "run-now") {
      const result = await runScheduleNow(db, { name: input.schedule, actorId: admin.id });
      if (!result.ok) return refusal(result);
      return {
        ok: true,
        message: result.queued
          ? "admin.automation.done.queued"
          : "admin.automation.done.alreadyQueued",
        schedule: input.schedule,
      } satisfies AutomationActionResult;
    }
    const result =
      input.intent === "retry"
        ? await retryJob(db, { id: input.id, actorId: admin.id })
        : await discardJob(db, { id: input.id, actorId: admin.id });
    if (!result.ok) return refusal(result);
    return {
      ok: true,
      message:
        input.intent === "retry"
          ? "admin.automation.done.retried"
          : "admin.automation.done.discarded",
      id: input.id,
    } satisfies AutomationActionResult;
  },
);

export default function AdminAutomation({ loaderData, actionData }: Route.ComponentProps) {
  return <AutomationPage {...loaderData} result={actionData} />;
}
