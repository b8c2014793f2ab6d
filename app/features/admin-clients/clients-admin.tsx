import { useTranslation } from "~/i18n/use-translation";
import { Form } from "react-router";
import { byId, type Column } from "~/components/data-table/data-table";
import {
  actionsColumn,
  badgeColumn,
  column,
  sortableColumn,
} from "~/components/data-table/column-presets";
import { FilterFields, listFilters } from "~/components/data-table/filter-bar";
import { ListPage } from "~/components/data-table/list-page";
import { pageHref } from "~/components/data-table/pager";
import { Button } from "~/components/ui/button";
import { choicesOf } from "~/components/ui/form-card";
import { ResultMessage } from "~/components/ui/result-message";
import {
  DELETION_FILTER_LABELS,
  DELETION_FILTERS,
  ROLE_FILTER_LABELS,
  ROLE_FILTERS,
  SORT_DIRECTION_LABELS,
  USER_SORT_LABELS,
  USER_SORTS,
  type UserListQuery,
  type UserSort,
} from "~/domain/accounts/user-admin";
import { formatCoins } from "~/lib/money";
import { SORT_DIRECTIONS } from "~/lib/sort-directions";
import type { ClientActionResult, ClientRow } from "./client-shared";
import { Badge } from "~/components/ui/badge";
import { ClientLink } from "~/components/ui/client-link";
import { CoinsDialog, ConfirmAccountDialog, EditUserDialog } from "./user-dialogs";
import { mediumDate, numberFormat } from "~/lib/intl-format";

export type { ClientActionResult } from "./client-shared";

export function ClientsAdmin({
  heading,
  users,
  total,
  totalCapped,
  query,
  hasMore,
  adminId,
  mayManageStaff,
  coinKeys,
  proofFresh,
  coinProofThreshold,
  locale,
  result,
}: {
  heading: "clients" | "users";
  users: ClientRow[];
  total: number;
  /** More accounts match than were counted (total is then the limit). */
  totalCapped: boolean;
  query: UserListQuery;
  hasMore: boolean;
  adminId: string;
  /** The acting member's role holds `staff.manage` (the edit form links to /admin/staff). */
  mayManageStaff: boolean;
  /** Each row's coin form key (a fresh one per page view). */
  coinKeys: Record<string, string>;
  /** The session's proof of identity is fresh: no coin change asks for one. */
  proofFresh: boolean;
  /** Coins above which a change asks for a fresh proof (the security settings). */
  coinProofThreshold: number;
  locale: string;
  result?: ClientActionResult;
}) {
  const { t } = useTranslation("admin");
  const date = mediumDate(locale);
  // The list's address with some of its query changed; a value that is the default is left out.
  const href = (changes: Partial<UserListQuery>) => {
    const merged: UserListQuery = { ...query, ...changes };
    return pageHref(
      {
        q: merged.q,
        role: merged.role === "all" ? null : merged.role,
        deletion: merged.deletion === "all" ? null : merged.deletion,
        sort: merged.sort === "created" ? null : merged.sort,
        dir: merged.dir === "desc" ? null : merged.dir,
      },
      merged.page,
    );
  };
  /** A column the list can be sorted by: its header becomes a link to the list sorted by it. */
  const sortable = (sort: UserSort, column: Column<ClientRow>) =>
    sortableColumn(column, {
      active: query.sort === sort,
      dir: query.dir,
      first: sort === "name" || sort === "email" || sort === "role" ? "asc" : "desc",
      href: (dir) => href({ sort, dir, page: 1 }),
    });
  // The list's own search form: its sort controls are fields too, and it has no clear link.
  const filters = listFilters(query, "client", [
    {
      kind: "search",
      name: "q",
      id: "client-search",
      label: t("users.search"),
      placeholder: t("users.searchPlaceholder"),
      className: "sm:col-span-2 lg:col-span-1",
    },
    {
      kind: "select",
      name: "role",
      label: t("users.roleFilter"),
      options: choicesOf(ROLE_FILTERS, (role) => t(ROLE_FILTER_LABELS[role])),
    },
    {
      kind: "select",
      name: "deletion",
      label: t("users.deletionFilter"),
      options: choicesOf(DELETION_FILTERS, (deletion) => t(DELETION_FILTER_LABELS[deletion])),
    },
    {
      kind: "select",
      name: "sort",
      label: t("users.sortBy"),
      options: choicesOf(USER_SORTS, (sort) => t(USER_SORT_LABELS[sort])),
    },
    {
      kind: "select",
      name: "dir",
      label: t("users.direction"),
      options: choicesOf(SORT_DIRECTIONS, (dir) => t(SORT_DIRECTION_LABELS[dir])),
    },
  ]);
  const rowResult = (user: ClientRow) => (result && result.userId === user.id ? result : undefined);
  const columns: Column<ClientRow>[] = [
    sortable("name", {
      id: "client",
      header: t("users.columns.client"),
      wide: true,
      cell: (user) => (
        <>
          <p className="font-semibold">
            <ClientLink userId={user.id} className="font-semibold">
              {user.name}
            </ClientLink>
            {user.id === adminId ? (
              <span className="ms-2 text-xs font-normal text-muted-foreground">
                ({t("users.you")})
              </span>
            ) : null}
          </p>
          <p className="text-muted-foreground" dir="ltr">
            {user.email}
          </p>
          {user.deletionRequestedAt ? (
            <p className="mt-1">
              <Badge
                tone="yellow"
                title={t("users.deletionRequestedOn", {
                  date: date.format(new Date(user.deletionRequestedAt)),
                })}
              >
                {t("users.deletionRequested")}
              </Badge>
            </p>
          ) : null}
        </>
      ),
    }),
    sortable(
      "role",
      badgeColumn(
        "role",
        t("users.columns.role"),
        (user) => ({
          tone: user.role === "admin" ? "blue" : "grey",
          text: t(user.role === "admin" ? "users.roles.admin" : "users.roles.user"),
        }),
        { label: true },
      ),
    ),
    sortable(
      "coins",
      column("coins", t("users.columns.coins"), (user) => (
        <>
          <span className="block font-mono">
            <span dir="ltr">{formatCoins(user.coinBalanceCents, locale)}</span>
          </span>
          <CoinsDialog
            user={user}
            idempotencyKey={coinKeys[user.id] ?? ""}
            locale={locale}
            proof={{ fresh: proofFresh, thresholdCoins: coinProofThreshold }}
            result={rowResult(user)}
          />
        </>
      )),
    ),
    sortable(
      "services",
      column("services", t("users.columns.services"), (user) => (
        <span className="font-mono">{user.activeServices}</span>
      )),
    ),
    sortable(
      "orders",
      column("orders", t("users.columns.orders"), (user) => (
        <span className="font-mono">{user.orders}</span>
      )),
    ),
    sortable(
      "created",
      column(
        "joined",
        t("users.columns.joined"),
        (user) => (
          <span className="whitespace-nowrap">{date.format(new Date(user.createdAt))}</span>
        ),
        { wide: true },
      ),
    ),
    actionsColumn(
      t("users.columns.actions"),
      (user) => (
        <div className="flex flex-wrap gap-2 md:flex-nowrap">
          <EditUserDialog
            user={user}
            self={user.id === adminId}
            staffLink={mayManageStaff}
            result={rowResult(user)}
          />
          {user.deletionRequestedAt && user.role !== "admin" ? (
            <ConfirmAccountDialog intent="complete-deletion" user={user} result={rowResult(user)} />
          ) : null}
          {user.role === "admin" ? null : (
            <ConfirmAccountDialog intent="delete" user={user} result={rowResult(user)} />
          )}
        </div>
      ),
      { wide: true },
    ),
  ];

  return (
    <ListPage
      header={
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h1 className="text-2xl font-bold">
            {t(heading === "users" ? "nav.users" : "nav.clients")}
          </h1>
          <p className="text-sm text-muted-foreground">
            {totalCapped
              ? t("users.countMore", {
                  limit: numberFormat(locale).format(total),
                })
              : t("users.count", { count: total })}
          </p>
        </div>
      }
      filters={
        <Form
          method="get"
          role="search"
          className="grid gap-3 rounded-lg border bg-background p-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))_auto] lg:items-end"
        >
          <FilterFields filters={filters} />
          <Button type="submit" variant="outline" className="sm:col-span-2 lg:col-span-1">
            {t("users.searchButton")}
          </Button>
        </Form>
      }
      table={{
        caption: t(heading === "users" ? "nav.users" : "nav.clients"),
        columns,
        rows: users,
        rowKey: byId,
      }}
      empty={t("users.empty")}
      pager={{ page: query.page, hasMore, href: (page) => href({ page }) }}
    >
      {result ? <ResultMessage result={result} /> : null}
    </ListPage>
  );
}
