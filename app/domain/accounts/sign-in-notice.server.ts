import type { Tx } from "~/db/transaction";
import { record } from "~/domain/events/events.server";

/**
 * A step of sign-in (docs/mail.md "Security mail"): records the sign-in, whose reaction tells an admin,
 * in their language, when, from which address and with which browser, so a sign-in they did not make is
 * noticed. Customers are not mailed. Once per sign-in attempt (`attemptId`, the login throttle's row).
 */
export async function recordSignIn(
  trx: Tx,
  input: {
    userId: string;
    role: string;
    attemptId: string | number;
    ip: string;
    userAgent?: string | null;
    now?: Date;
  },
): Promise<void> {
  const now = input.now ?? new Date();
  await record(
    trx,
    {
      type: "account.signedIn",
      userId: input.userId,
      role: input.role,
      attemptId: input.attemptId,
      at: now.toISOString(),
      ip: input.ip,
      userAgent: input.userAgent ?? null,
    },
    now,
  );
}
