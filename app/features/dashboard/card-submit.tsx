import type { ComponentProps, ReactNode } from "react";
import { Button } from "~/components/ui/button";

/**
 * The submit button of a form in an account-tab card: small, as wide as its label, and waiting while a
 * form is being sent or the page reloads (`busy`).
 */
export function CardSubmit({
  busy,
  variant,
  children,
}: {
  busy: boolean;
  variant?: ComponentProps<typeof Button>["variant"];
  children: ReactNode;
}) {
  return (
    <Button type="submit" size="sm" variant={variant} className="w-fit" disabled={busy}>
      {children}
    </Button>
  );
}
