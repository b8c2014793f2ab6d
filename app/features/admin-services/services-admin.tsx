import { useTranslation } from "~/i18n/use-translation";
import { Form, useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import { byId, type Column } from "~/components/data-table/data-table";
import {
  actionsColumn,
  badgeColumn,
  noteColumn,
  sortableColumn,
} from "~/components/data-table/column-presets";
import { FilterBar, listFilters } from "~/components/data-table/filter-bar";
import { ListPage } from "~/components/data-table/list-page";
import { pageHref } from "~/components/data-table/pager";
import { choicesOf, FormFields, type FieldSpec } from "~/components/ui/form-card";
import { Button } from "~/components/ui/button";
import { IntentButton } from "~/components/ui/intent-button";
import { clientColumn } from "~/components/ui/client-link";
import { TitledCard } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import {
  badgeTone,
  canTransition,
  displayStatus,
  EXPIRING_WITHIN,
  EXPIRING_WITHIN_LABELS,
  MAX_ADMIN_NOTE_LENGTH,
  SERVICE_ACTION_LABELS,
  SERVICE_DIRECTION_LABELS,
  SERVICE_SORT_LABELS,
  SERVICE_SORTS,
  SERVICE_STATUS_LABELS,
  SERVICE_STATUSES,
  type ServiceAction,
  type ServiceListQuery,
  type ServiceSort,
  type ServiceStatus,
} from "~/domain/hosting-services/hosting-services";
import {
  BILLING_CYCLE_IDS,
  BILLING_CYCLE_LABELS,
  BILLING_CYCLE_NAMES,
} from "~/domain/orders/orders";
import { PRODUCT_TYPES } from "~/domain/catalogue/catalogue";
import { PRODUCT_TYPE_LABELS } from "~/domain/catalogue/catalogue-admin";
import { centsToEuroInput } from "~/lib/euro-input";
import { formatEuros } from "~/lib/money";
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import { Select } from "~/components/ui/select";
import { useMessage } from "~/i18n/use-message";
import { mediumDate } from "~/lib/intl-format";
import { SORT_DIRECTIONS } from "~/lib/sort-directions";
import type { AdminServiceView } from "~/domain/hosting-services/hosting-services";
import type { Product } from "~/domain/catalogue/catalogue";
import { Badge } from "~/components/ui/badge";
import { panelInStep, panelStateTone } from "~/domain/provisioning/panel-plan";
import { PANEL_STATE_LABELS, type PanelState } from "~/domain/provisioning/provisioning";

export type AdminServiceRow = Pick<
  AdminServiceView,
  | "id"
  | "name"
  | "serverName"
  | "userId"
  | "userEmail"
  | "userName"
  | "cyclePriceCents"
  | "billingCycle"
  | "status"
  | "expiresAt"
  | "adminNote"
  | "panel"
>;

/**
 * What an action on a service said; `params.status` is the status it now has. `intent: "edit"` marks the
 * edit form's outcome (shown in the form, with `values` as typed after a refusal).
 */
export type ServiceActionResult = Pick<ActionResult, "ok" | "message" | "fieldErrors"> & {
  params?: Record<string, string>;
  intent?: "edit";
  values?: Record<string, string>;
};

export function ServicesAdmin({
  services,
  hasMore,
  query,
  editing,
  products,
  locale,
  now,
  result,
}: {
  services: AdminServiceRow[];
  hasMore: boolean;
  query: ServiceListQuery;
  /** The service whose edit form is open (null when `query.edit` names none). */
  editing: AdminServiceRow | null;
  products: Pick<Product, "id" | "name">[];
  locale: string;
  /**
   * The moment the list was read at (ISO): the badges are read against it, not this render's clock, so
   * the browser's hydration shows what the server's page did even when an expiry passed in between.
   */
  now: string;
  result?: ServiceActionResult;
}) {
  const { t } = useTranslation("services");
  const { t: tOrders } = useTranslation("orders");
  const { t: tCatalogue } = useTranslation("admin-catalogue");
  const { t: tProvisioning } = useTranslation("provisioning");
  const tServices = t;
  const message = useMessage();
  const busy = useNavigation().state !== "idle";
  const date = mediumDate(locale);
  const clock = new Date(now);
  const editResult = result?.intent === "edit" ? result : undefined;
  const listResult = result?.intent === "edit" ? undefined : result;
  const errors = listResult?.fieldErrors ?? {};
  const actions: ServiceAction[] = ["suspend", "reactivate", "terminate"];
  const filters = (changes: Partial<ServiceListQuery> = {}) => {
    const merged = { ...query, ...changes };
    return {
      q: merged.q,
      status: merged.status,
      type: merged.type,
      within: merged.within,
      sort: merged.sort === "created" ? undefined : merged.sort,
      dir: merged.dir === "desc" ? undefined : merged.dir,
    };
  };
  const href = (page: number, changes: Partial<ServiceListQuery> = {}) =>
    pageHref(filters(changes), page);
  const editHref = (id: number) => {
    const list = href(query.page);
    return `${list}${list === "?" ? "" : "&"}edit=${id}`;
  };
  // The sort and its direction sit in the bar too; away from the usual order they count as a filter.
  const filterFields = listFilters(query, "services", [
    {
      kind: "search",
      name: "q",
      label: t("admin.search"),
      maxLength: 200,
      placeholder: t("admin.searchPlaceholder"),
    },
    {
      kind: "select",
      name: "status",
      label: t("admin.status"),
      anyLabel: t("admin.anyStatus"),
      options: choicesOf(SERVICE_STATUSES, (status) => t(SERVICE_STATUS_LABELS[status])),
    },
    {
      kind: "select",
      name: "type",
      label: t("admin.type"),
      anyLabel: t("admin.anyType"),
      options: choicesOf(PRODUCT_TYPES, (type) => tCatalogue(PRODUCT_TYPE_LABELS[type])),
    },
    {
      kind: "select",
      name: "within",
      label: t("admin.expiring"),
      anyLabel: t("admin.anyExpiry"),
      options: choicesOf(EXPIRING_WITHIN, (days) => t(EXPIRING_WITHIN_LABELS[days])),
    },
    {
      kind: "select",
      name: "sort",
      label: t("admin.sortBy"),
      anyValue: "created",
      options: choicesOf(SERVICE_SORTS, (sort) => t(SERVICE_SORT_LABELS[sort])),
    },
    {
      kind: "select",
      name: "dir",
      label: t("admin.direction"),
      anyValue: "desc",
      options: choicesOf(SORT_DIRECTIONS, (dir) => t(SERVICE_DIRECTION_LABELS[dir])),
    },
  ]);
  const filtered = filterFields.filtered;
  /** A column the list can be sorted by: its header becomes a link to the list sorted by it. */
  const sortable = (sort: ServiceSort, column: Column<AdminServiceRow>) =>
    sortableColumn(column, {
      active: query.sort === sort,
      dir: query.dir,
      first: sort === "customer" ? "asc" : "desc",
      href: (dir) => href(1, { sort, dir }),
    });
  const columns: Column<AdminServiceRow>[] = [
    { id: "id", header: "#", className: "font-mono", cell: (service) => service.id },
    sortable(
      "customer",
      clientColumn(t("admin.customer"), (service) => ({
        userId: service.userId,
        name: service.userName,
        email: service.userEmail,
      })),
    ),
    noteColumn("service", t("admin.service"), (service) => [
      service.name,
      [service.serverName, service.adminNote].filter(Boolean).join(" · "),
    ]),
    sortable(
      "price",
      noteColumn(
        "price",
        t("admin.price_label"),
        (service) => [
          <span key="price" dir="ltr">
            {formatEuros(service.cyclePriceCents, locale)}
          </span>,
          tOrders(BILLING_CYCLE_NAMES[service.billingCycle]),
        ],
        "auto",
      ),
    ),
    sortable("expires", {
      id: "expires",
      header: t("admin.expires"),
      // A phone card's label: the sort link in the header is no text the card can show.
      label: t("admin.expires"),
      cell: (service) => date.format(new Date(service.expiresAt)),
    }),
    badgeColumn("status", t("admin.status"), (service) => {
      const shown = displayStatus(service.status, service.expiresAt, clock);
      return { tone: badgeTone(shown), text: t(SERVICE_STATUS_LABELS[shown]) };
    }),
    {
      id: "panel",
      header: tProvisioning("list.column"),
      label: tProvisioning("list.column"),
      cell: (service) =>
        service.panel ? (
          // Named by what it shows, then where it leads (a name that hid the state would not say
          // what a person sees: axe's label-content-name-mismatch).
          <Link
            to={`/admin/services/${service.id}/panel`}
            className="inline-flex flex-wrap items-center gap-1"
          >
            <Badge tone={panelStateTone(service.panel.state)}>
              {tServices(PANEL_STATE_LABELS[service.panel.state as PanelState])}
            </Badge>
            {panelInStep(service.status, service.panel.state) ? null : (
              <Badge tone="red">{tProvisioning("list.outOfStep")}</Badge>
            )}
            <span className="sr-only">{tProvisioning("list.open", { id: service.id })}</span>
          </Link>
        ) : (
          <span className="text-muted-foreground">{tProvisioning("list.manual")}</span>
        ),
    },
    actionsColumn(t("admin.actions"), (service) => (
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline" size="sm">
          <Link to={editHref(service.id)} aria-label={t("admin.editOne", { id: service.id })}>
            {t("admin.edit")}
          </Link>
        </Button>
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
  const editFields: FieldSpec[] = [
    { kind: "input", name: "name", label: t("admin.name"), required: true, maxLength: 100 },
    {
      kind: "input",
      name: "price",
      label: t("admin.cyclePrice"),
      hint: t("admin.cyclePriceHint"),
      inputMode: "decimal",
      dir: "ltr",
      required: true,
    },
    {
      kind: "input",
      name: "expiresOn",
      label: t("admin.expiresOn"),
      hint: t("admin.expiresOnHint"),
      type: "date",
      dir: "ltr",
      required: true,
    },
    {
      kind: "textarea",
      name: "adminNote",
      label: t("admin.note"),
      hint: t("admin.noteHint"),
      rows: 3,
      maxLength: MAX_ADMIN_NOTE_LENGTH,
      variant: "form",
    },
  ];
  const stored = editing
    ? {
        name: editing.name,
        price: centsToEuroInput(editing.cyclePriceCents),
        expiresOn: new Date(editing.expiresAt).toISOString().slice(0, 10),
        adminNote: editing.adminNote ?? "",
      }
    : {};
  const editor =
    query.edit === undefined ? null : (
      <TitledCard
        title={
          editing
            ? t("admin.editTitle", { id: editing.id, customer: editing.userEmail })
            : t("admin.edit")
        }
      >
        {editing ? (
          <Form
            method="post"
            action={editHref(editing.id)}
            className="grid gap-4"
            noValidate
            key={editing.id}
          >
            <input type="hidden" name="intent" value="edit" />
            <input type="hidden" name="serviceId" value={editing.id} />
            {editResult ? <ResultMessage result={editResult} /> : null}
            <FormFields
              fields={editFields}
              idPrefix="edit"
              values={editResult && !editResult.ok ? editResult.values : stored}
              errors={editResult?.fieldErrors}
            />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={busy}>
                {t("admin.save")}
              </Button>
              <Button asChild variant="ghost">
                <Link to={href(query.page)}>{t("admin.closeEdit")}</Link>
              </Button>
            </div>
          </Form>
        ) : (
          <div className="grid gap-2">
            <p className="text-muted-foreground">{t("errors.notFound")}</p>
            <Link to={href(query.page)} className="underline">
              {t("admin.closeEdit")}
            </Link>
          </div>
        )}
      </TitledCard>
    );
  return (
    <ListPage
      className="grid gap-6"
      header={<h1 className="text-2xl font-bold">{t("admin.title")}</h1>}
      filters={
        <>
          {listResult ? (
            <ResultMessage
              result={listResult}
              values={
                listResult.params
                  ? {
                      status: t(
                        SERVICE_STATUS_LABELS[listResult.params.status as ServiceStatus] ??
                          "status.active",
                      ).toLowerCase(),
                    }
                  : undefined
              }
            />
          ) : null}
          {editor}
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

          <FilterBar
            filters={filterFields}
            label={t("admin.filter")}
            clearLabel={t("admin.clear")}
            wideColumns="lg:grid-cols-4"
          />
        </>
      }
      table={{
        caption: t("admin.title"),
        columns,
        rows: services,
        rowKey: byId,
        phone: "scroll",
        rowClassName: "align-top",
      }}
      empty={t(filtered ? "admin.noMatch" : "admin.empty")}
      pager={{ page: query.page, hasMore, href: (page) => href(page) }}
    />
  );
}
