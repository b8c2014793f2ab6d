import { checkVoucher } from "~/domain/orders/orders.server";
import { VoucherCheckLimiter, type VoucherCheckResult } from "~/domain/orders/voucher-check";
import { voucherCheckQuerySchema } from "~/domain/orders/voucher-check.schemas";
import { requireUser } from "~/http/guards.server";
import { statusOf } from "~/http/result-status";
import type { Route } from "./+types/order-voucher";
import { requestContext } from "~/context.server";

// One per server process: a customer's checks of the last minute (voucher-check.ts says why in memory).
const limiter = new VoucherCheckLimiter();

/**
 * GET /order/voucher?code=…&product=…&billingCycle=…&backup=…: the order form checks a voucher code as it
 * is typed and shows its discount as a line. JSON, never cached; signed-in customers only, a few checks
 * a minute each. Placing the order checks the code again.
 */
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const query = voucherCheckQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  const result: VoucherCheckResult | { ok: false; kind: "invalid"; error: string } = !query.success
    ? {
        ok: false,
        kind: "invalid",
        error: query.error.issues[0]?.message ?? "orders.errors.voucherNotFound",
      }
    : !limiter.take(user.id)
      ? { ok: false, kind: "limited", error: "orders.errors.voucherCheckLimited" }
      : await checkVoucher(context.services.db, query.data);
  return Response.json(result, {
    status: result.ok ? 200 : statusOf(result),
    headers: { "Cache-Control": "private, no-store" },
  });
}
