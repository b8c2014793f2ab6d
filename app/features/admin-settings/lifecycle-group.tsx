import { Badge } from "~/components/ui/badge";
import type { FieldSpec } from "~/components/ui/form-card";
import { expiryPassed } from "~/domain/hosting-services/hosting-services";
import type { LifecyclePreview, LifecycleService } from "~/domain/lifecycle/lifecycle";
import { LIFECYCLE_MAX_DAYS, type Settings } from "~/domain/settings/settings";
import { useTranslation } from "~/i18n/use-translation";
import { mediumDate } from "~/lib/intl-format";
import { formatEuros } from "~/lib/money";
import { SectionState, settingsRow, type SettingsGroup } from "./settings-group";

/**
 * The service lifecycle (docs/automation.md): its switch, its reminders and delays in days, and what its
 * next run would do.
 */
export function useLifecycleGroup(
  settings: Settings,
  /** What the service lifecycle's next run would do (previewLifecycle). */
  preview: LifecyclePreview,
  locale: string,
): SettingsGroup {
  const { t } = useTranslation("admin-settings");
  const lifecycleOn = settings.lifecycle.enabled;
  // A number of days: a whole number the form checks again (lifecycleFormSchema).
  const days = (name: string, label: string, hint?: string, min = 0): FieldSpec => ({
    kind: "input",
    type: "number",
    name,
    label,
    hint,
    min,
    max: LIFECYCLE_MAX_DAYS,
    step: 1,
    inputMode: "numeric",
    dir: "ltr",
    className: "w-28",
  });
  return {
    form: "lifecycle",
    title: t("lifecycle.title"),
    description: t("lifecycle.description"),
    aside: <SectionState section="lifecycle" holds={lifecycleOn} />,
    fields: [
      {
        kind: "switch",
        name: "enabled",
        label: t("lifecycle.enabled"),
        hint: t("lifecycle.enabledHint"),
      },
      settingsRow(3, [
        days("firstReminderDays", t("lifecycle.firstReminderDays"), t("lifecycle.reminderHint")),
        days("secondReminderDays", t("lifecycle.secondReminderDays"), t("lifecycle.reminderHint")),
        days("lastReminderDays", t("lifecycle.lastReminderDays"), t("lifecycle.reminderHint")),
      ]),
      settingsRow(3, [
        days("graceDays", t("lifecycle.graceDays"), t("lifecycle.graceDaysHint")),
        days("terminationDays", t("lifecycle.terminationDays"), undefined, 1),
        days("terminationWarningDays", t("lifecycle.terminationWarningDays")),
      ]),
      {
        kind: "switch",
        name: "expireOrders",
        label: t("lifecycle.expireOrders"),
        hint: t("lifecycle.expireOrdersHint"),
      },
      days("orderExpiryDays", t("lifecycle.orderExpiryDays"), undefined, 1),
      {
        kind: "custom",
        key: "preview",
        content: <LifecyclePreviewList preview={preview} locale={locale} />,
      },
    ],
  };
}

// Literal keys (admin-settings namespace) for the catalogue test, in the order a run takes them.
const PREVIEW_SERVICE_LABELS = {
  renew: "lifecycle.actions.renew",
  short: "lifecycle.actions.short",
  suspend: "lifecycle.actions.suspend",
  terminate: "lifecycle.actions.terminate",
  warn: "lifecycle.actions.warn",
  remind: "lifecycle.actions.remind",
} as const satisfies Record<keyof LifecyclePreview["services"], string>;
const PREVIEW_COUNTS = {
  renew: "renewed",
  short: "renewalShort",
  suspend: "suspended",
  terminate: "terminated",
  warn: "warned",
  remind: "reminded",
} as const satisfies Record<keyof LifecyclePreview["services"], keyof LifecyclePreview["counts"]>;

/**
 * "Preview": what the next run of the service lifecycle would do, service by service (the first few of
 * each action, with how many more), each linked to its customer's page; nothing is done.
 */
export function LifecyclePreviewList({
  preview,
  locale,
}: {
  preview: LifecyclePreview;
  locale: string;
}) {
  const { t } = useTranslation("admin-settings");
  const date = mediumDate(locale);
  // The preview's own moment, not this render's clock: the browser's hydration says what the server did.
  const now = new Date(preview.now);
  const nothing = Object.values(preview.counts).every((count) => count === 0);
  const detail = (
    action: keyof LifecyclePreview["services"],
    service: LifecycleService & { days?: number; missingCents?: number },
  ) => {
    if (action === "remind" && service.days)
      return t("lifecycle.previewDays", { days: service.days });
    if (action === "short" && service.missingCents)
      return t("lifecycle.previewMissing", { amount: formatEuros(service.missingCents, locale) });
    if ((action === "warn" || action === "terminate") && service.suspendedAt)
      return t("lifecycle.previewSuspended", { date: date.format(new Date(service.suspendedAt)) });
    return t(
      expiryPassed(service.expiresAt, now)
        ? "lifecycle.previewExpired"
        : "lifecycle.previewExpires",
      {
        date: date.format(new Date(service.expiresAt)),
      },
    );
  };
  const more = (count: number, shown: number) =>
    count > shown ? (
      <li className="text-muted-foreground">
        {t("lifecycle.previewMore", { number: count - shown })}
      </li>
    ) : null;
  return (
    <section
      aria-labelledby="lifecycle-preview-title"
      className="grid gap-3 rounded-lg border p-4"
      data-testid="lifecycle-preview"
    >
      <h3 id="lifecycle-preview-title" className="font-semibold">
        {t("lifecycle.previewTitle")}
      </h3>
      {preview.enabled ? null : (
        <p className="text-sm text-muted-foreground">{t("lifecycle.previewOff")}</p>
      )}
      {nothing ? <p className="text-sm">{t("lifecycle.previewNothing")}</p> : null}
      {(Object.keys(PREVIEW_SERVICE_LABELS) as (keyof typeof PREVIEW_SERVICE_LABELS)[]).map(
        (action) => {
          const count = preview.counts[PREVIEW_COUNTS[action]];
          if (count === 0) return null;
          const services = preview.services[action];
          return (
            <div key={action} className="grid gap-1 text-sm">
              <h4 className="font-medium">
                {t(PREVIEW_SERVICE_LABELS[action])} <Badge tone="blue">{count}</Badge>
              </h4>
              <ul className="grid gap-1 ps-4">
                {services.map((service) => (
                  <li key={service.serviceId} data-service-id={service.serviceId}>
                    <a
                      href={`/admin/clients/${service.userId}`}
                      className="text-primary hover:underline"
                    >
                      <bdi>{service.name}</bdi> #{service.serviceId}
                    </a>{" "}
                    <span dir="ltr" className="break-all">
                      {service.userEmail}
                    </span>{" "}
                    · {detail(action, service)}
                  </li>
                ))}
                {more(count, services.length)}
              </ul>
            </div>
          );
        },
      )}
      {preview.counts.ordersExpired > 0 ? (
        <div className="grid gap-1 text-sm">
          <h4 className="font-medium">
            {t("lifecycle.actions.ordersExpired")}{" "}
            <Badge tone="blue">{preview.counts.ordersExpired}</Badge>
          </h4>
          <ul className="grid gap-1 ps-4">
            {preview.orders.map((order) => (
              <li key={order.orderId} data-order-id={order.orderId}>
                <a href={`/admin/clients/${order.userId}`} className="text-primary hover:underline">
                  #{order.orderId} <bdi>{order.productName}</bdi>
                </a>{" "}
                <span dir="ltr" className="break-all">
                  {order.userEmail}
                </span>{" "}
                · {t("lifecycle.previewPlaced", { date: date.format(new Date(order.createdAt)) })}
              </li>
            ))}
            {more(preview.counts.ordersExpired, preview.orders.length)}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
