import type { Upload } from "~/domain/files/uploads.server";
import { inTransaction, type Db } from "~/db/transaction";
import { withTicketFiles } from "./ticket-files.server";
import {
  addMessage,
  findTicketOrRefuse,
  oncePerKey,
  type AdminTicketResult,
} from "./tickets.server";

// Notes the staff write on a ticket for each other (docs/self-service.md): kept in the thread, marked
// internal, shown to the staff only. The customer's thread (getCustomerTicket), their files, mails,
// notifications and data never carry one.

export type InternalNoteResult = AdminTicketResult | { ok: true; message: "tickets.notes.added" };

/**
 * A member of the staff adds an internal note, with files if any, stored once per the form's key. It
 * changes nothing else: the ticket's status, waiting time and last change stay as they were (the
 * customer's list, ordered by it, shows nothing new), and no event is recorded, so nobody is mailed or
 * notified.
 */
export async function addInternalNote(
  db: Db,
  input: {
    actorId: string;
    ticketId: number;
    message: string;
    idempotencyKey?: string;
    uploads?: readonly Upload[];
    now?: Date;
  },
): Promise<InternalNoteResult> {
  const now = input.now ?? new Date();
  const noted = { ok: true, message: "tickets.notes.added" } as const;
  return oncePerKey<InternalNoteResult>(
    db,
    input.idempotencyKey,
    { authorId: input.actorId, ticketId: input.ticketId },
    () => noted,
    () =>
      withTicketFiles(
        db,
        { uploaderId: input.actorId, uploads: input.uploads ?? [], limited: false, now },
        (files) =>
          inTransaction(db, async (trx) => {
            await findTicketOrRefuse(trx, input.ticketId);
            await addMessage(
              trx,
              {
                ticketId: input.ticketId,
                authorId: input.actorId,
                isStaff: true,
                internal: true,
                body: input.message,
                idempotencyKey: input.idempotencyKey,
                files,
              },
              now,
            );
            return noted;
          }),
      ),
  );
}
