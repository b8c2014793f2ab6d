import type { Tx } from "~/db/transaction";
import { queueMail } from "~/domain/mail/mail.server";

/**
 * A step of sign-in (docs/mail.md "Security mail"): an admin who signs in is told, in their language, when,
 * from which address and with which browser, so a sign-in they did not make is noticed. Customers are
 * not mailed. Once per sign-in attempt (`attemptId`, the login throttle's row). Returns whether a notice
 * was queued.
 */
export async function queueAdminSignInNotice(
  trx: Tx,
  input: {
    userId: string;
    role: string;
    attemptId: string | number;
    ip: string;
    userAgent?: string | null;
    now?: Date;
  },
): Promise<boolean> {
  if (input.role !== "admin") return false;
  const now = input.now ?? new Date();
  const queued = await queueMail(
    trx,
    {
      kind: "adminSignIn",
      userId: input.userId,
      eventKey: String(input.attemptId),
      at: now.toISOString(),
      ip: input.ip,
      userAgent: input.userAgent ?? null,
    },
    now,
  );
  return queued > 0;
}
