import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { messageKey } from "~/lib/message-key";
import { cn } from "~/lib/utils";

export const selectClass =
  "flex h-10 w-full rounded-md border bg-background px-3 py-2 text-base aria-invalid:border-destructive md:text-sm";
export const textareaClass =
  "w-full rounded-md border bg-background px-3 py-2 text-base aria-invalid:border-destructive md:text-sm";

/** The outcome of a form on these pages: what happened and, for a refusal, why. */
export interface CatalogueActionResult {
  ok: boolean;
  message: string;
  reason?: string;
  fieldErrors?: Record<string, string>;
  /** What was typed, to show the form again as it was. */
  values?: Record<string, string>;
}

/** Translates a domain message key ("admin-catalogue.products.errors.slugTaken") in any namespace. */
export function useMessage() {
  const { t } = useTranslation("admin-catalogue");
  const tr = t as (key: string, options?: object) => string;
  return (key: string | undefined, options?: object) =>
    key ? tr(messageKey(key), options) : undefined;
}

export function ResultText({ result }: { result: CatalogueActionResult }) {
  const message = useMessage();
  return (
    <>
      {message(result.message)}
      {result.reason ? <span className="block">{message(result.reason)}</span> : null}
    </>
  );
}

/** A hint under a field, tied to it with aria-describedby. */
export function Hint({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="text-sm text-muted-foreground">
      {children}
    </p>
  );
}

/** aria props for a control with a hint and maybe an error (Field renders the error as `${id}-error`). */
export function describedBy(id: string, options: { hint?: boolean; error?: string }) {
  const ids = [options.hint ? `${id}-hint` : null, options.error ? `${id}-error` : null].filter(
    Boolean,
  );
  return {
    ...(ids.length ? { "aria-describedby": ids.join(" ") } : {}),
    ...(options.error ? { "aria-invalid": true as const } : {}),
  };
}

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
