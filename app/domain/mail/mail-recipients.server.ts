import {
  activeAdminsOnce,
  activeAdminsRead,
  keepActiveAdmins,
} from "~/domain/accounts/user-directory.server";
import type { Tx } from "~/db/transaction";
import { OPTIONAL_MAIL_KINDS, STAFF_MAIL_CHOICE_OF, type MailKind } from "./mail";
import type { Planned } from "./mail-plan.server";

// Who each planned message goes to (docs/mail.md): the customer it concerns unless they turned its kind
// off, every active admin, or the admins who asked for it. Read for the outbox's writer (mail.server.ts).

export interface Recipient {
  id: string;
  email: string;
  locale: string | null;
}

/** A few hundred rows a statement: well under SQLite's and PostgreSQL's limits on parameters. */
const CHUNK = 200;

/** `items` a few hundred at a time, for one statement each. */
export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The recipients of every planned message, read at once: the customers (active, and not having turned
 * the message's kind off in the account tab) in one query per few hundred, every active admin once. A
 * message the customer turned off is replaced by what it carries (`instead`), if anything. When staff
 * are mailed too and the transaction has not read its admins yet, the first query reads them as well
 * (an order mails its customer and every admin: one statement where there were two).
 */
export async function recipientsOf(
  trx: Tx,
  planned: Planned[],
): Promise<{ message: Planned; recipients: Recipient[] }[]> {
  const customerIds = [
    ...new Set(planned.flatMap((each) => (each.to === "customer" ? [each.userId!] : []))),
  ];
  const customers = new Map<string, Recipient>();
  const optedOut = new Set<string>();
  const optional = planned.some((each) =>
    (OPTIONAL_MAIL_KINDS as readonly MailKind[]).includes(each.kind),
  );
  const askedFor = await staffChoicesOf(trx, planned);
  // The admins are read only when one of them is to be mailed: a customer's reply, which mails only
  // the admins who asked for it, reads nothing more when none did.
  const staff = planned.some((each) => each.to === "staff" && askedFor(each.kind) !== "nobody");
  // The admins read beside the first customers, in activeAdmins' order, when they are still to read.
  const adminsBeside: Recipient[] | undefined =
    staff && customerIds.length > 0 && !activeAdminsRead(trx) ? [] : undefined;
  for (const [index, ids] of chunks(customerIds, 500).entries()) {
    const withAdmins = adminsBeside !== undefined && index === 0;
    // Each customer with the kinds they turned off, in one statement (a row per kind, or one row with
    // none). Only the kinds a customer may turn off: a kind that became essential is sent whatever
    // was chosen.
    const rows = await trx
      .selectFrom("users")
      .leftJoin("mail_opt_outs", (join) =>
        join
          .onRef("mail_opt_outs.user_id", "=", "users.id")
          .on("mail_opt_outs.kind", "in", optional ? OPTIONAL_MAIL_KINDS : ["-"]),
      )
      .select([
        "users.id",
        "users.email",
        "users.locale",
        "users.role",
        "mail_opt_outs.kind as optedOut",
      ])
      .where("users.status", "=", "active")
      .where((eb) =>
        withAdmins
          ? eb.or([eb("users.id", "in", ids), eb("users.role", "=", "admin")])
          : eb("users.id", "in", ids),
      )
      .$if(withAdmins, (query) => query.orderBy("users.id"))
      .execute();
    const asked = new Set(ids);
    for (const row of rows) {
      const recipient = { id: row.id, email: row.email, locale: row.locale };
      if (withAdmins && row.role === "admin" && adminsBeside!.at(-1)?.id !== row.id)
        adminsBeside!.push(recipient);
      if (!asked.has(row.id)) continue;
      customers.set(row.id, recipient);
      if (row.optedOut !== null) optedOut.add(`${row.id}\n${row.optedOut}`);
    }
  }
  if (adminsBeside) keepActiveAdmins(trx, adminsBeside);
  // Every active admin, in one order (two transactions inserting the same keys never deadlock).
  const admins = staff ? (adminsBeside ?? (await activeAdminsOnce(trx))) : [];
  return planned.map((each) => {
    if (each.to === "staff") {
      const asked = askedFor(each.kind);
      if (asked === "nobody") return { message: each, recipients: [] };
      return {
        message: each,
        recipients: asked === "every" ? admins : admins.filter((admin) => asked.has(admin.id)),
      };
    }
    const customer = customers.get(each.userId!);
    if (!customer) return { message: each, recipients: [] };
    const message = optedOut.has(`${customer.id}\n${each.kind}`) ? each.instead : each;
    if (!message) return { message: each, recipients: [] };
    return {
      message,
      recipients: [message.address ? { ...customer, email: message.address } : customer],
    };
  });
}

/**
 * Who asked for each staff message that needs a choice (STAFF_MAIL_CHOICE_OF), read in one statement
 * when such a message is planned: "every" admin for the others, "nobody" when no one asked.
 */
async function staffChoicesOf(
  trx: Tx,
  planned: Planned[],
): Promise<(kind: MailKind) => "every" | "nobody" | Set<string>> {
  const choices = [
    ...new Set(
      planned.flatMap((each) => {
        const choice = each.to === "staff" ? STAFF_MAIL_CHOICE_OF[each.kind] : undefined;
        return choice ? [choice] : [];
      }),
    ),
  ];
  const asked = new Map<string, Set<string>>();
  if (choices.length > 0)
    for (const row of await trx
      .selectFrom("mail_opt_ins")
      .select(["user_id", "kind"])
      .where("kind", "in", choices)
      .execute())
      asked.set(row.kind, (asked.get(row.kind) ?? new Set()).add(row.user_id));
  return (kind) => {
    const choice = STAFF_MAIL_CHOICE_OF[kind];
    if (!choice) return "every";
    return asked.get(choice) ?? "nobody";
  };
}
