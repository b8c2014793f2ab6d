// Whether the outbox's writer (mail.server.ts) queues a send job for each message or keeps it unsent.

/**
 * Whether this process keeps the mail it queues instead of sending it: true when no SMTP_URL is set,
 * decided once at boot (bootServices). A kept message is stored unwritten with no send job: writing it
 * (about 1.5 ms of CPU) and a job's claim and end for every message would cost the busy paths (each
 * order mails the customer and every admin) for a message nobody is sent. /admin/mail writes it when an
 * admin reads it. Off by default: a process that never boots (a test, a script) queues send jobs, whose
 * handler keeps the message when it has no transport.
 */
let keepUnsent = false;

/** Called at boot with whether SMTP_URL is missing (docs/mail.md, "Without SMTP_URL"). */
export function keepMailUnsent(keep: boolean): void {
  keepUnsent = keep;
}

/** Whether the mail queued now is kept unsent (`keepMailUnsent`). */
export function keepsMailUnsent(): boolean {
  return keepUnsent;
}
