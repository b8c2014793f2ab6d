import { timingSafeEqual } from "node:crypto";
import type { AppServices } from "~/context.server";
import { pingDatabase } from "~/db/database.server";
import { getCurrentSession } from "~/domain/accounts/accounts.server";
import { workerHealth } from "~/domain/jobs/health.server";

/** Whether `authorization` is "Bearer <token>" for the configured HEALTHZ_TOKEN (compared in constant time). */
export function bearerMatches(
  authorization: string | undefined,
  token: string | undefined,
): boolean {
  if (!token || !authorization?.startsWith("Bearer ")) return false;
  const given = Buffer.from(authorization.slice("Bearer ".length).trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * /healthz: the database answers (200) or not (503). With ?deep=1, for a signed-in admin or a monitor
 * holding HEALTHZ_TOKEN, it also reports the background worker: its last heartbeat, the processes
 * running one, and the dead and waiting jobs (docs/automation.md). Anyone else asking deep is refused.
 */
export async function healthAnswer(
  services: AppServices,
  request: { deep: boolean; cookie: string | null; authorization: string | undefined },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const ok = await pingDatabase(services.db);
  const plain = { status: ok ? 200 : 503, body: { status: ok ? "ok" : "unavailable" } };
  if (!request.deep) return plain;
  const allowed =
    bearerMatches(request.authorization, services.env.HEALTHZ_TOKEN) ||
    (ok && (await getCurrentSession(services, request.cookie))?.user.role === "admin");
  if (!allowed) return { status: 403, body: { ...plain.body, deep: "refused" } };
  if (!ok) return plain;
  return { status: 200, body: { ...plain.body, worker: await workerHealth(services.db) } };
}
