import type { ReactNode } from "react";
import { Link } from "react-router";
import { cn } from "~/lib/utils";

/** The admin page of one account (issue 21): every place the admin panel names a client links here. */
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
