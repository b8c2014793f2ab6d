import { ArrowLeftIcon, PencilIcon, PlusIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import { StatusMessage } from "~/components/ui/status-message";
import { cn } from "~/lib/utils";

export const textareaClass =
  "w-full rounded-md border bg-background px-3 py-2 text-base aria-invalid:border-destructive md:text-sm";

/** The outcome of a form on these pages: what happened and, for a refusal, why. */
export type CatalogueActionResult = ActionResult;

export function PageHeader({
  title,
  intro,
  children,
  className,
}: {
  title: string;
  intro?: string;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("flex flex-wrap items-start justify-between gap-3", className)}>
      <div className="grid min-w-0 gap-1">
        <h1 className="text-2xl font-bold">{title}</h1>
        {intro ? <p className="max-w-3xl text-sm text-muted-foreground">{intro}</p> : null}
      </div>
      {children}
    </div>
  );
}

/** True while a form is being sent or the page reloads: its buttons wait. */
export function useBusy() {
  return useNavigation().state !== "idle";
}

/** The header's button that opens the editor on a new item. */
export function NewLink({ label }: { label: string }) {
  return (
    <Button asChild>
      <Link to="?edit=new">
        <PlusIcon aria-hidden />
        {label}
      </Link>
    </Button>
  );
}

/** A row's button that opens the editor on it; `accessibleName` names the item. */
export function EditLink({
  id,
  label,
  accessibleName,
}: {
  id: number;
  label: string;
  accessibleName: string;
}) {
  return (
    <Button asChild variant="outline" size="sm">
      <Link to={`?edit=${id}`} aria-label={accessibleName}>
        <PencilIcon aria-hidden />
        {label}
      </Link>
    </Button>
  );
}

/** A row's one-intent button (hide, show, activate...): a plain form, so it works without JavaScript. */
export function RowIntentButton({
  action,
  intent,
  id,
  label,
  accessibleName,
}: {
  action: string;
  intent: string;
  id: number;
  label: string;
  accessibleName: string;
}) {
  const busy = useBusy();
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <Button type="submit" variant="outline" size="sm" disabled={busy} aria-label={accessibleName}>
        {label}
      </Button>
    </Form>
  );
}

/**
 * A list's messages: the last save's notice (unless a row action has just said something), an item
 * asked for that does not exist, then what a row action did.
 */
export function ListMessages({
  notice,
  notFound,
  result,
}: {
  notice?: string;
  notFound?: string;
  result?: CatalogueActionResult;
}) {
  return (
    <>
      {notice && !result ? <StatusMessage ok>{notice}</StatusMessage> : null}
      {notFound ? <StatusMessage ok={false}>{notFound}</StatusMessage> : null}
      {result ? <ResultMessage result={result} /> : null}
    </>
  );
}

/**
 * An editor page: the way back to the list, the title, a refused save's reasons, a note on the item's
 * history, then the form (create without `id`, update with it) and its save and cancel buttons.
 */
export function EditorPage({
  listHref,
  labels,
  id,
  result,
  note,
  children,
}: {
  listHref: string;
  labels: { back: string; title: string; intro: string; save: string; cancel: string };
  id?: number;
  result?: CatalogueActionResult;
  note?: string;
  children: ReactNode;
}) {
  const busy = useBusy();
  return (
    <main className="grid min-w-0 gap-4">
      <Link
        to={listHref}
        className="inline-flex w-fit items-center gap-1 text-sm text-primary hover:underline"
      >
        <ArrowLeftIcon className="size-4 rtl:rotate-180" aria-hidden />
        {labels.back}
      </Link>
      <PageHeader title={labels.title} intro={labels.intro} />
      {result && !result.ok ? <ResultMessage result={result} /> : null}
      {note ? (
        <p className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900">
          {note}
        </p>
      ) : null}
      <Card>
        <CardContent className="pt-6">
          <Form method="post" className="grid gap-5" noValidate>
            <input type="hidden" name="intent" value={id === undefined ? "create" : "update"} />
            {id === undefined ? null : <input type="hidden" name="id" value={id} />}
            {children}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={busy}>
                {labels.save}
              </Button>
              <Button asChild variant="outline">
                <Link to={listHref}>{labels.cancel}</Link>
              </Button>
            </div>
          </Form>
        </CardContent>
      </Card>
    </main>
  );
}
