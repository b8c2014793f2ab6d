import { Fragment } from "react";
import { cn } from "~/lib/utils";

/**
 * Where an address may break on a narrow screen: after its "@" and before each dot of its domain
 * ("nadia.benali@" / "mail" / ".example" / ".com"). Pure, for the component and its test.
 */
export function emailPieces(email: string): string[] {
  const at = email.lastIndexOf("@");
  if (at <= 0) return [email];
  const domain = email.slice(at + 1).split(/(?=\.)/);
  return [email.slice(0, at + 1), ...domain.filter(Boolean)];
}

/**
 * An email address, left to right, that wraps at its sensible points (emailPieces: a <wbr> each) and
 * breaks inside a piece only when that piece alone is wider than the line. Its own `overflow-wrap:
 * break-word` overrides a table cell's `anywhere`, which would let a narrow column cut the address
 * after any letter.
 */
export function EmailAddress({ email, className }: { email: string; className?: string }) {
  const pieces = emailPieces(email);
  return (
    <span dir="ltr" className={cn("wrap-break-word", className)}>
      {pieces.map((piece, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {piece}
        </Fragment>
      ))}
    </span>
  );
}
