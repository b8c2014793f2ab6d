import { data } from "react-router";
import { z } from "~/lib/zod";
import { searchUsers } from "~/domain/accounts/user-directory.server";
import { adjustCoinsSchema } from "~/domain/coins/coins";
import { adjustCoins } from "~/domain/coins/coins.server";
import { ClientsAdmin } from "~/features/admin-clients/clients-admin";
import { parseForm } from "~/http/form.server";
import { requireAdmin } from "~/http/guards.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/clients";

const PAGE_SIZE = 25;
const querySchema = z.object({
  q: z.string().max(200).catch(""),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(request, context);
  const t = context.i18n.getFixedT(null, "coins");
  const query = querySchema.parse({
    q: "",
    ...Object.fromEntries(new URL(request.url).searchParams),
  });
  const { users, hasMore } = await searchUsers(context.services.db, {
    q: query.q,
    limit: PAGE_SIZE,
    offset: (query.page - 1) * PAGE_SIZE,
  });
  return {
    meta: { title: t("admin.title") },
    users,
    hasMore,
    q: query.q,
    page: query.page,
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin(request, context);
  const form = await parseForm(request, adjustCoinsSchema);
  if (!form.ok)
    return data(
      { ok: false, message: Object.values(form.fieldErrors)[0] ?? "coins.errors.amountInvalid" },
      { status: 400 },
    );
  const result = await adjustCoins(context.services.db, {
    userId: form.data.userId,
    amountCents: form.data.amount,
    reason: form.data.reason,
    actorId: admin.id,
  });
  if (!result.ok) return data({ ok: false, message: result.error }, { status: 400 });
  return { ok: true, message: "coins.admin.updated" };
}

export default function AdminClients({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <ClientsAdmin
      users={loaderData.users}
      q={loaderData.q}
      page={loaderData.page}
      hasMore={loaderData.hasMore}
      locale={loaderData.locale}
      result={actionData}
    />
  );
}
