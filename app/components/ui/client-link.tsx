import type { ReactNode } from "react";
import { Link } from "~/components/ui/link";
import { noteColumn } from "~/components/data-table/column-presets";
import type { Column } from "~/components/data-table/data-table";
import { EmailAddress } from "~/components/ui/email-address";
import { cn } from "~/lib/utils";

/** The admin page of one account: every place the admin panel names a client links here. */
export function clientPath(userId: string): string {
  return `/admin/clients/${encodeURIComponent(userId)}`;
}

/**
 * A client's name as a link to their page. A name is what people typed, so the link takes its own
 * direction (`dir="auto"`).
 */
export function ClientLink({
  userId,
  children,
  className,
}: {
  userId: string;
  /** The link's text: the client's name. */
  children: ReactNode;
  className?: string;
}) {
  return (
    <Link
      to={clientPath(userId)}
      className={cn("font-medium text-primary hover:underline", className)}
      dir="auto"
    >
      {children}
    </Link>
  );
}

/**
 * The "customer" column of a `phone: "scroll"` queue (orders, services, tickets): the client's name as a
 * link to their page, their email under it, written left to right and wrapped at its "@" or its dots.
 */
export function clientColumn<Row>(
  header: string,
  client: (row: Row) => { userId: string; name: string; email: string },
): Column<Row> {
  return noteColumn(
    "customer",
    header,
    (row) => {
      const { userId, name, email } = client(row);
      return [<ClientLink userId={userId}>{name}</ClientLink>, <EmailAddress email={email} />];
    },
    "ltr",
  );
}
