import { useTranslation } from "~/i18n/use-translation";
import { Form, useNavigation } from "react-router";
import { byId, type Column } from "~/components/data-table/data-table";
import {
  actionsColumn,
  badgeColumn,
  customerColumn,
  noteColumn,
} from "~/components/data-table/column-presets";
import { ListTable } from "~/components/data-table/list-page";
import { Button } from "~/components/ui/button";
import { IntentButton } from "~/components/ui/intent-button";
import { TitledCard } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import {
  badgeTone,
  canTransition,
  displayStatus,
  SERVICE_ACTION_LABELS,
  SERVICE_STATUS_LABELS,
  type ServiceAction,
  type ServiceStatus,
} from "~/domain/hosting-services/hosting-services";
import { BILLING_CYCLE_IDS, BILLING_CYCLE_LABELS } from "~/domain/orders/orders";
import { formatEuros } from "~/lib/money";
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import { Select } from "~/components/ui/select";
import { useMessage } from "~/i18n/use-message";
import { dateTimeFormat } from "~/lib/intl-format";
import type { AdminServiceView } from "~/domain/hosting-services/hosting-services";
import type { Product } from "~/domain/catalogue/catalogue";

export type AdminServiceRow = Pick<
  AdminServiceView,
  | "id"
  | "name"
  | "serverName"
  | "userEmail"
  | "userName"
  | "monthlyPriceCents"
  | "billingCycle"
  | "status"
  | "expiresAt"
>;

/** What an action on a service said; `params.status` is the status it now has. */
export type ServiceActionResult = Pick<ActionResult, "ok" | "message" | "fieldErrors"> & {
  params?: Record<string, string>;
};

export function ServicesAdmin({
  services,
  products,
  locale,
  result,
}: {
  services: AdminServiceRow[];
  products: Pick<Product, "id" | "name">[];
  locale: string;
  result?: ServiceActionResult;
}) {
  const { t } = useTranslation("services");
  const { t: tOrders } = useTranslation("orders");
  const message = useMessage();
  const busy = useNavigation().state !== "idle";
  const date = dateTimeFormat(locale, { dateStyle: "medium" });
  const errors = result?.fieldErrors ?? {};
  const actions: ServiceAction[] = ["suspend", "reactivate", "terminate"];
  const columns: Column<AdminServiceRow>[] = [
    { id: "id", header: "#", className: "font-mono", cell: (service) => service.id },
    customerColumn(t("admin.customer"), (service) => [service.userName, service.userEmail]),
    noteColumn("service", t("admin.service"), (service) => [service.name, service.serverName]),
    {
      id: "price",
      header: t("admin.price_label"),
      dir: "ltr",
      cell: (service) => formatEuros(service.monthlyPriceCents, locale),
    },
    {
      id: "expires",
      header: t("admin.expires"),
      cell: (service) => date.format(new Date(service.expiresAt)),
    },
    badgeColumn("status", t("admin.status"), (service) => {
      const shown = displayStatus(service.status, service.expiresAt);
      return { tone: badgeTone(shown), text: t(SERVICE_STATUS_LABELS[shown]) };
    }),
    actionsColumn(t("admin.actions"), (service) => (
      <div className="flex flex-wrap gap-2">
        {actions
          .filter((action) => canTransition(service.status, action))
          .map((action) => (
            <IntentButton
              key={action}
              intent={action}
              fields={{ serviceId: service.id }}
              confirmText={
                action === "terminate" ? t("admin.confirmTerminate", { id: service.id }) : undefined
              }
              variant={action === "terminate" ? "destructive" : "outline"}
            >
              {t(SERVICE_ACTION_LABELS[action])}
            </IntentButton>
          ))}
        <IntentButton
          intent="delete"
          fields={{ serviceId: service.id }}
          confirmText={t("admin.confirmDelete", { id: service.id })}
          variant="ghost"
        >
          {t("admin.delete")}
        </IntentButton>
      </div>
    )),
  ];
  return (
    <main className="grid gap-6">
      <h1 className="text-2xl font-bold">{t("admin.title")}</h1>
      {result ? (
        <ResultMessage
          result={result}
          values={
            result.params
              ? {
                  status: t(
                    SERVICE_STATUS_LABELS[result.params.status as ServiceStatus] ?? "status.active",
                  ).toLowerCase(),
                }
              : undefined
          }
        />
      ) : null}

      <TitledCard title={t("admin.add")}>
        <Form method="post" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" noValidate>
          <input type="hidden" name="intent" value="add" />
          <Field id="userId" label={t("admin.user")} error={message(errors.userId)}>
            <Input id="userId" name="userId" required dir="ltr" />
          </Field>
          <Field id="name" label={t("admin.name")} error={message(errors.name)}>
            <Input id="name" name="name" required maxLength={100} />
          </Field>
          <Field id="price" label={t("admin.price")} error={message(errors.price)}>
            <Input id="price" name="price" inputMode="decimal" dir="ltr" placeholder="4.50" />
          </Field>
          <Field id="productId" label={t("admin.product")}>
            <Select id="productId" name="productId" defaultValue="">
              <option value="">{t("admin.noProduct")}</option>
              {products.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="serverName" label={t("admin.serverName")}>
            <Input id="serverName" name="serverName" maxLength={64} />
          </Field>
          <Field id="billingCycle" label={t("admin.billingCycle")}>
            <Select id="billingCycle" name="billingCycle" defaultValue="monthly">
              {BILLING_CYCLE_IDS.map((id) => (
                <option key={id} value={id}>
                  {tOrders(BILLING_CYCLE_LABELS[id])}
                </option>
              ))}
            </Select>
          </Field>
          <div className="sm:col-span-2 lg:col-span-3">
            <Button type="submit" disabled={busy}>
              {t("admin.submit")}
            </Button>
          </div>
        </Form>
      </TitledCard>

      <ListTable
        table={{
          caption: t("admin.title"),
          columns,
          rows: services,
          rowKey: byId,
          phone: "scroll",
          rowClassName: "align-top",
        }}
        empty={t("admin.empty")}
      />
    </main>
  );
}
