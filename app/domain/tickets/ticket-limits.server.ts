import { Refusal, type Tx } from "~/db/transaction";
import { countFormPost } from "~/domain/request-limits/request-limits.server";
import { TICKET_LIMITS, waitToSay, type TicketLimitWindow } from "./tickets";

// A customer's ticket openings and replies, counted per account with the form limit's count
// (app/domain/request-limits), in the transaction that stores them: a refusal rolls the transaction
// back, its count with it, so only what was stored counts and a customer told to wait who comes back
// when told gets in.

/** Refused for now: the wait, in minutes (or hours for the day's limit), is in `count`. */
export type TicketLimitRefusal = {
  ok: false;
  kind: "limited";
  error:
    | "tickets.errors.tooManyTickets"
    | "tickets.errors.tooManyTicketsToday"
    | "tickets.errors.tooManyReplies";
  count: number;
};

const REFUSALS = {
  open: { minutes: "tickets.errors.tooManyTickets", hours: "tickets.errors.tooManyTicketsToday" },
  reply: { minutes: "tickets.errors.tooManyReplies", hours: "tickets.errors.tooManyReplies" },
} as const satisfies Record<
  keyof typeof TICKET_LIMITS,
  Record<TicketLimitWindow["unit"], TicketLimitRefusal["error"]>
>;

/**
 * A step: counts the customer's ticket opening or reply at `now` against each of its windows
 * (TICKET_LIMITS), or throws the refusal (a `Refusal`, which rolls the caller's transaction back and is
 * what its use-case returns) naming the longest wait of the windows that refused.
 */
export async function countTicketPost(
  trx: Tx,
  post: { userId: string; what: keyof typeof TICKET_LIMITS },
  now: Date,
): Promise<void> {
  let refused: { resetAt: number; window: TicketLimitWindow } | undefined;
  for (const window of TICKET_LIMITS[post.what]) {
    const decision = await countFormPost(
      trx,
      {
        // Counted under the account, from whatever address (as a verification link's resends are).
        ip: "account",
        form: `${window.name}/${post.userId}`,
        limit: window.limit,
        windowMs: window.windowMs,
      },
      now,
    );
    const resetAt = decision.resetAt.getTime();
    if (!decision.allowed && (!refused || resetAt > refused.resetAt)) refused = { resetAt, window };
  }
  if (refused)
    throw new Refusal<TicketLimitRefusal>({
      ok: false,
      kind: "limited",
      error: REFUSALS[post.what][refused.window.unit],
      count: waitToSay(now.getTime(), refused.resetAt, refused.window.unit),
    });
}
