import type { Db } from "~/db/transaction";

export async function submitContactMessage(
  db: Db,
  input: { name: string; email: string; subject: string; message: string },
): Promise<void> {
  await db
    .insertInto("contact_messages")
    .values({ ...input, created_at: new Date().toISOString() })
    .execute();
}

/**
 * Once per address, whatever its case (the unique column holds the lower-cased address); subscribing
 * again is not an error (the visitor sees the same thanks).
 */
export async function subscribeToNewsletter(db: Db, email: string): Promise<void> {
  await db
    .insertInto("newsletter_subscribers")
    .values({ email: email.trim().toLowerCase(), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column("email").doNothing())
    .execute();
}
