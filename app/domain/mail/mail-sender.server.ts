import { createHash } from "node:crypto";
import type { Selectable, Updateable } from "kysely";
import type { MailOutboxTable } from "~/db/schema";
import { inTransaction } from "~/db/transaction";
import { PermanentJobError, type JobHandler } from "~/domain/jobs/jobs.server";
import { isMailKind, isPermanentSmtpRefusal, redactTokenLinks, type MailKind } from "./mail";
import { paramsToWrite, parseParams } from "./message-values.server";

// The send job (docs/mail.md): writes a queued message in its recipient's language at its first
// attempt, stores it with a Message-ID made from its row, then sends it over SMTP, or keeps it when no
// SMTP_URL is set. The worker runs it (server/mail.ts gives it the templates and the transport).

/** The send job's type: one job per outbox row (mail.server.ts queues them). */
export const MAIL_SEND_JOB = "mail.send";

export type OutboxRow = Selectable<MailOutboxTable>;

/** A message as a template writes it. */
export interface WrittenMail {
  subject: string;
  html: string;
  text: string;
}

/** Writes a message from its row (kind, language, params): the server's templates (server/mail.ts). */
export type MailWriter = (message: {
  kind: MailKind;
  locale: string;
  params: Record<string, unknown>;
}) => Promise<WrittenMail>;

/** What sends a written message: nodemailer's SMTP transport in the server, null without SMTP_URL. */
export interface MailTransport {
  sendMail(message: {
    from: string;
    to: string;
    subject: string;
    html: string;
    text: string;
    messageId: string;
    /** Headers of its kind (a campaign's List-Unsubscribe and List-Unsubscribe-Post). */
    headers?: Record<string, string>;
  }): Promise<unknown>;
}

/**
 * The Message-ID of an outbox row: made from its id and unique key, so every attempt at the same message
 * carries the same one (a server that took the message but whose answer was lost sees it again as the
 * same message), and two installs never make the same.
 */
export function messageIdOf(
  row: Pick<OutboxRow, "id" | "unique_key" | "created_at">,
  from: string,
) {
  const hash = createHash("sha256")
    .update(`${row.unique_key}\n${row.created_at}`)
    .digest("hex")
    .slice(0, 16);
  const domain =
    from
      .split("@")
      .pop()
      ?.replace(/[^A-Za-z0-9.-]/g, "") || "hostfront.invalid";
  return `<outbox.${row.id}.${hash}@${domain}>`;
}

/**
 * The send job's handler. `transport` null (no SMTP_URL): the message is written and kept in the outbox
 * for /admin/mail. A failed attempt marks the row failed with the server's answer and throws, so the
 * worker retries with its backoff and /admin/automation shows the job; a permanent refusal (a 5xx answer
 * to the message, `isPermanentSmtpRefusal`) marks it refused and throws a PermanentJobError, so the job
 * is dead at once and staff are alerted. A message sent or kept is never sent again (a job run twice
 * after a crash finds it done); a refused one only when staff Retry its job.
 */
export function mailSendHandlerWith(options: {
  write: MailWriter;
  transport: MailTransport | null;
  /** The From header (MAIL_FROM); its address's domain ends the Message-ID. */
  from: string;
  /**
   * The headers a message of its kind carries beyond the usual ones, made from its values at every
   * attempt (a campaign's unsubscribe address, docs/mail.md#campaigns).
   */
  headers?: (message: {
    kind: MailKind;
    params: Record<string, unknown>;
  }) => Record<string, string> | undefined;
}): JobHandler {
  return async ({ db, now, payload, complete }): Promise<Record<string, number>> => {
    const { outboxId } = payload as { outboxId?: unknown };
    if (typeof outboxId !== "number") return { missing: 1 };
    const row = await db
      .selectFrom("mail_outbox")
      .selectAll()
      .where("id", "=", outboxId)
      .executeTakeFirst();
    if (!row) return { missing: 1 };
    if (row.state === "sent" || (row.state === "kept" && !options.transport)) return { done: 1 };
    if (!isMailKind(row.kind)) throw new Error(`Unknown mail kind "${row.kind}"`);

    // A message is written once: a retry sends what the first attempt wrote. Its Message-ID comes from
    // the row alone, so writing it again after a crash (nothing stored yet) gives the same one.
    const stored = row.subject !== null && row.html !== null && row.text !== null && row.message_id;
    const message: WrittenMail & { messageId: string } = stored
      ? { subject: row.subject!, html: row.html!, text: row.text!, messageId: row.message_id! }
      : {
          ...(await options.write({
            kind: row.kind,
            locale: row.locale,
            params: await paramsToWrite(db, row.kind, row.params),
          })),
          messageId: messageIdOf(row, options.from.replace(/>\s*$/, "")),
        };
    const at = now.toISOString();
    const written = stored
      ? {}
      : {
          subject: message.subject,
          html: message.html,
          text: message.text,
          message_id: message.messageId,
        };
    // Each outcome is one write of the row (with the message, the first time), committed with the job's
    // end where the job ends: with the claim, two commits per message rather than four (docs/mail.md).
    const settle = (changes: Updateable<MailOutboxTable>, endsJob: boolean) =>
      inTransaction(db, async (trx) => {
        await trx
          .updateTable("mail_outbox")
          .set({ ...written, ...changes, updated_at: at })
          .where("id", "=", row.id)
          .execute();
        if (endsJob) await complete(trx);
      });

    if (!options.transport) {
      await settle({ state: "kept" }, true);
      return { kept: 1 };
    }
    try {
      const headers = options.headers?.({ kind: row.kind, params: parseParams(row.params) });
      await options.transport.sendMail({
        from: options.from,
        to: row.to_address,
        ...message,
        ...(headers ? { headers } : {}),
      });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      const refused = isPermanentSmtpRefusal(error);
      await settle(
        {
          state: refused ? "refused" : "failed",
          attempts: row.attempts + 1,
          last_error: text.slice(0, 2000),
        },
        false,
      );
      if (refused)
        throw new PermanentJobError(`The mail server refused the message for good: ${text}`, {
          cause: error,
        });
      throw error;
    }
    await settle(
      {
        state: "sent",
        attempts: row.attempts + 1,
        last_error: null,
        sent_at: at,
        ...withoutToken(row.params, message),
      },
      true,
    );
    return { sent: 1 };
  };
}

/**
 * What a sent message's row keeps of a link that opens an account (a reset or a verification link): the
 * link with its token redacted, and no token in its values. The mail carries the link; the table need
 * not hold a working one for whoever reads it later (a backup, a stolen admin session).
 */
function withoutToken(
  params: string,
  message: { html: string; text: string },
): Partial<Updateable<MailOutboxTable>> {
  const values = parseParams(params);
  if (!("token" in values)) return {};
  const { token: _sent, ...kept } = values;
  return {
    params: JSON.stringify(kept),
    html: redactTokenLinks(message.html),
    text: redactTokenLinks(message.text),
  };
}
