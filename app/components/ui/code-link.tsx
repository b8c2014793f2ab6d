import type { ReactNode } from "react";
import { Link } from "~/components/ui/link";

/**
 * A code that names a record (an invoice's number) as the link to its page: monospace and left to right,
 * so "INV-2026-0001" reads the same in Arabic.
 */
export function CodeLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="font-mono text-primary hover:underline" dir="ltr">
      {children}
    </Link>
  );
}
