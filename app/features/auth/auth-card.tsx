import type { ReactNode } from "react";
import { Link } from "~/components/ui/link";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { withRedirect } from "./auth-form";

export function AuthCard({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description?: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <main className="mx-auto flex w-full max-w-md flex-col px-4 py-12">
      <Card>
        <CardHeader>
          <h1 className="text-xl font-semibold">{title}</h1>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </CardHeader>
        <CardContent className="grid gap-4">{children}</CardContent>
      </Card>
      {footer ? <div className="mt-4 text-center text-sm">{footer}</div> : null}
    </main>
  );
}

/**
 * A card's footer: the question, then the link to the other form ("No account yet? Register"), which
 * keeps where to go once signed in (`redirectTo`).
 */
export function SwitchFormLine({
  question,
  label,
  to,
  redirectTo,
}: {
  question: string;
  label: string;
  to: "/login" | "/register";
  redirectTo: string | null;
}) {
  return (
    <>
      {question}{" "}
      <Link to={withRedirect(to, redirectTo)} className="font-medium text-primary hover:underline">
        {label}
      </Link>
    </>
  );
}
