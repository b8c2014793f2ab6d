import { column } from "~/components/data-table/column-presets";
import { DataTable, timeColumn, type Column } from "~/components/data-table/data-table";
import { Pager } from "~/components/data-table/pager";
import { Badge } from "~/components/ui/badge";
import { FreshProofField, type ProofAnswer } from "~/components/ui/fresh-proof-field";
import { FormCard, FormFields, choicesOf, type FieldSpec } from "~/components/ui/form-card";
import { ResultText, type ActionResult } from "~/components/ui/result-message";
import { formatFileSize } from "~/domain/payments/top-up-proofs";
import {
  MAX_NOTIFICATION_BYTES,
  PROVIDER_MODES,
  type ProviderCode,
} from "~/domain/payments/providers/provider";
import {
  defaultProviderUrl,
  MAX_PROVIDER_URL_LENGTH,
  MAX_PUBLIC_ID_LENGTH,
  MAX_SECRET_LENGTH,
  MAX_WEBHOOK_ID_LENGTH,
  PROVIDER_MODE_LABELS,
  PROVIDER_NAME_LABELS,
  isCountedRefusal,
  REFUSED_OUTCOME_LABELS,
  type CountedRefusalEntry,
  type ProviderSettingsView,
  type RefusedListEntry,
} from "~/domain/payments/providers/provider-settings";
import { useTranslation } from "~/i18n/use-translation";
import { mediumDateTime } from "~/lib/intl-format";
import { useBusy } from "~/components/ui/use-busy";

// /admin/gateways' online providers (docs/payments.md "Online providers"): one form a provider (its
// secret never shown back: only its last four characters), then the notifications that were refused.

/** What a provider's form post answered (a save that worked goes back to the page with a toast). */
export interface ProviderActionResult extends ActionResult, ProofAnswer {
  intent: "provider";
  provider: ProviderCode;
}

export interface RefusedNotificationsPage {
  notifications: RefusedListEntry[];
  page: number;
  hasMore: boolean;
}

/** Each provider's form, then the refused notifications' list. */
export function ProviderSections({
  providers,
  refused,
  result,
  locale,
  proofNeeded,
}: {
  providers: ProviderSettingsView[];
  refused: RefusedNotificationsPage;
  result?: ProviderActionResult;
  locale: string;
  /** Saving asks for a fresh proof of identity (the session's is stale). */
  proofNeeded: boolean;
}) {
  const { t } = useTranslation("payments");
  return (
    <section aria-labelledby="online-providers" className="mt-8 grid gap-6">
      <div className="grid gap-1">
        <h2 id="online-providers" className="text-xl font-bold">
          {t("providers.title")}
        </h2>
        <p className="text-muted-foreground">{t("providers.intro")}</p>
      </div>
      {providers.map((provider) => (
        <ProviderForm
          key={provider.provider}
          settings={provider}
          result={result?.provider === provider.provider ? result : undefined}
          locale={locale}
          proofNeeded={proofNeeded}
        />
      ))}
      <RefusedNotifications refused={refused} locale={locale} />
    </section>
  );
}

/** The form's values as stored: an address that is the mode's documented one shows as empty. */
function storedValues(settings: ProviderSettingsView): Record<string, string> {
  const isDefault = settings.apiUrl === defaultProviderUrl(settings.provider, settings.mode);
  return {
    mode: settings.mode,
    apiUrl: isDefault ? "" : settings.apiUrl,
    publicId: settings.publicId,
    secret: "",
    webhookId: settings.webhookId,
  };
}

function ProviderForm({
  settings,
  result,
  locale,
  proofNeeded,
}: {
  settings: ProviderSettingsView;
  result?: ProviderActionResult;
  locale: string;
  proofNeeded: boolean;
}) {
  const { t } = useTranslation("payments");
  const busy = useBusy();
  const { provider } = settings;
  const paypal = provider === "paypal";
  const webhookId = `provider-${provider}-webhook-url`;
  const fields: FieldSpec[] = [
    {
      kind: "row",
      className: "grid items-start gap-4 sm:grid-cols-2",
      fields: [
        {
          kind: "select",
          name: "mode",
          label: t("providers.fields.mode"),
          variant: "validated",
          options: choicesOf(PROVIDER_MODES, (mode) => t(PROVIDER_MODE_LABELS[mode])),
        },
        {
          kind: "input",
          type: "url",
          name: "apiUrl",
          label: t("providers.fields.apiUrl"),
          hint: t("providers.fields.apiUrlHint"),
          placeholder: defaultProviderUrl(provider, settings.mode),
          maxLength: MAX_PROVIDER_URL_LENGTH,
          autoComplete: "off",
          dir: "ltr",
        },
      ],
    },
    {
      kind: "input",
      name: "publicId",
      label: t(paypal ? "providers.fields.publicIdPaypal" : "providers.fields.publicIdYoucanpay"),
      maxLength: MAX_PUBLIC_ID_LENGTH,
      autoComplete: "off",
      spellCheck: false,
      dir: "ltr",
    },
    {
      kind: "password",
      name: "secret",
      label: t(paypal ? "providers.fields.secretPaypal" : "providers.fields.secretYoucanpay"),
      hint:
        settings.secretLast4 !== null
          ? t("providers.fields.secretSaved", { last4: settings.secretLast4 })
          : t("providers.fields.secretHint"),
      showLabel: t("providers.fields.show"),
      hideLabel: t("providers.fields.hide"),
      autoComplete: "off",
      maxLength: MAX_SECRET_LENGTH,
    },
    ...(paypal
      ? [
          {
            kind: "input",
            name: "webhookId",
            label: t("providers.fields.webhookId"),
            hint: t("providers.fields.webhookIdHint"),
            maxLength: MAX_WEBHOOK_ID_LENGTH,
            autoComplete: "off",
            spellCheck: false,
            dir: "ltr",
          } satisfies FieldSpec,
        ]
      : []),
    {
      kind: "custom",
      key: "webhook-url",
      content: (
        <div className="grid gap-1 text-sm">
          <span id={webhookId} className="font-medium">
            {t("providers.webhookUrl")}
          </span>
          <code
            aria-labelledby={webhookId}
            dir="ltr"
            className="w-fit max-w-full rounded bg-muted px-2 py-1 break-all"
          >
            {settings.webhookUrl}
          </code>
        </div>
      ),
    },
  ];
  const date = mediumDateTime(locale);
  return (
    <FormCard
      id={`provider-${provider}`}
      title={t(PROVIDER_NAME_LABELS[provider])}
      description={t(paypal ? "providers.descriptions.paypal" : "providers.descriptions.youcanpay")}
      aside={
        settings.configured ? (
          <Badge tone="green">{t("providers.configured")}</Badge>
        ) : (
          <Badge tone="grey">{t("providers.notConfigured")}</Badge>
        )
      }
      status={result ? { ok: result.ok, text: <ResultText result={result} /> } : null}
      busy={busy}
      submit={{ label: t("providers.save"), busyLabel: t("providers.saving") }}
    >
      <FormFields
        // Made again after each save, so the secret typed does not stay in its field.
        key={settings.updatedAt ?? "new"}
        fields={fields}
        idPrefix={`provider-${provider}`}
        values={result?.values ?? storedValues(settings)}
        errors={result?.fieldErrors}
      />
      <FreshProofField id={`provider-${provider}-proof`} needed={proofNeeded} result={result} />
      {settings.updatedAt ? (
        <p className="text-sm text-muted-foreground">
          {t("providers.updatedAt", { date: date.format(new Date(settings.updatedAt)) })}
        </p>
      ) : null}
    </FormCard>
  );
}

function RefusedNotifications({
  refused,
  locale,
}: {
  refused: RefusedNotificationsPage;
  locale: string;
}) {
  const { t } = useTranslation("payments");
  const date = mediumDateTime(locale);
  const limit = formatFileSize(MAX_NOTIFICATION_BYTES, locale);
  // An oversized body or a replay is one row with a count: what it was, how often and since when.
  const countedDetail = (row: CountedRefusalEntry) => {
    const seen = t("providers.notifications.seen", {
      count: row.count,
      date: date.format(new Date(row.firstSeenAt)),
    });
    if (row.outcome === "replay") return seen;
    const size =
      row.bytes === null
        ? t("providers.notifications.sizeStreamed", { limit })
        : t("providers.notifications.sizeDeclared", {
            size: formatFileSize(row.bytes, locale),
            limit,
          });
    return `${size} · ${seen}`;
  };
  const columns: Column<RefusedListEntry>[] = [
    timeColumn({
      id: "receivedAt",
      name: t("providers.notifications.columns.receivedAt"),
      at: (row) => row.receivedAt,
      format: date,
    }),
    column("provider", t("providers.notifications.columns.provider"), (row) =>
      t(PROVIDER_NAME_LABELS[row.provider]),
    ),
    column("outcome", t("providers.notifications.columns.outcome"), (row) => (
      <Badge tone={isCountedRefusal(row) ? "yellow" : "red"}>
        {t(REFUSED_OUTCOME_LABELS[row.outcome])}
      </Badge>
    )),
    {
      ...column("eventType", t("providers.notifications.columns.eventType"), (row) => (
        <code className="break-all">{isCountedRefusal(row) ? row.eventId : row.eventType}</code>
      )),
      dir: "ltr",
    },
    column(
      "detail",
      t("providers.notifications.columns.detail"),
      (row) =>
        isCountedRefusal(row) ? (
          <span className="break-words">{countedDetail(row)}</span>
        ) : (
          <span className="break-words" dir="ltr">
            {row.detail ?? ""}
          </span>
        ),
      {
        wide: true,
        present: (row) => isCountedRefusal(row) || Boolean(row.detail),
      },
    ),
  ];
  return (
    <section aria-labelledby="refused-notifications" className="grid gap-3">
      <h3 id="refused-notifications" className="scroll-mt-20 text-lg font-semibold">
        {t("providers.notifications.title")}
      </h3>
      <p className="text-sm text-muted-foreground">{t("providers.notifications.intro")}</p>
      {refused.notifications.length === 0 ? (
        <p className="text-sm">{t("providers.notifications.empty")}</p>
      ) : (
        <DataTable
          caption={t("providers.notifications.title")}
          columns={columns}
          rows={refused.notifications}
          // The two sources number their rows apart: the outcome tells them apart.
          rowKey={(row) => `${row.outcome}:${row.id}`}
        />
      )}
      <Pager
        page={refused.page}
        hasMore={refused.hasMore}
        href={(page) => `?${page > 1 ? `refused=${page}` : ""}#refused-notifications`}
      />
    </section>
  );
}
