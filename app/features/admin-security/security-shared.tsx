import { useState, type ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Button } from "~/components/ui/button";
import { ConfirmDialogContent } from "~/components/ui/confirm-dialog";
import { Dialog, DialogTrigger } from "~/components/ui/dialog";
import type { ActionResult } from "~/components/ui/result-message";
import { compactAddress } from "~/lib/ip-address";
import { visibleText } from "~/lib/visible-text";

export type SecurityIntent = "revoke-session" | "revoke-others" | "lift-block";

export interface SecurityActionResult extends ActionResult {
  intent?: SecurityIntent;
  count?: number;
  key?: string;
  /** A pair's address, beside its email in `key`. */
  address?: string;
}

/** What fills the placeholders of a result's message: how many, and which key or address. */
export function resultValues(result: SecurityActionResult) {
  return { count: result.count ?? 0, key: result.key ?? "", address: result.address ?? "" };
}

/** An address a client connected from, as typed by a stranger: text in an ltr box, shortened. */
export function AddressText({ address }: { address: string }) {
  return (
    <span dir="ltr" className="font-mono text-xs break-all">
      {compactAddress(visibleText(address))}
    </span>
  );
}

/**
 * A section of the security page: its heading (id `${id}-heading`, which names the section) in a header
 * row laid out by `headerClassName` with what else the header says (`intro`), then the content.
 */
export function SecuritySection({
  id,
  title,
  headerClassName,
  intro,
  children,
}: {
  id: string;
  title: string;
  headerClassName: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className="grid min-w-0 gap-3">
      <div className={headerClassName}>
        <h2 id={`${id}-heading`} className="text-xl font-semibold">
          {title}
        </h2>
        {intro}
      </div>
      {children}
    </section>
  );
}

/**
 * A button that opens a confirmation; confirming posts `fields` to the page's action. The dialog closes
 * when an answer comes back; the section shows it.
 */
export function ConfirmAction({
  trigger,
  triggerLabel,
  title,
  description,
  confirm,
  fields,
  result,
  variant = "outline",
}: {
  trigger: ReactNode;
  /** The trigger's accessible name when its text alone is ambiguous (one per row). */
  triggerLabel?: string;
  title: string;
  description: ReactNode;
  confirm: string;
  fields: Record<string, string>;
  result?: SecurityActionResult;
  variant?: "outline" | "destructive";
}) {
  const { t } = useTranslation("admin-security");
  const [open, setOpen] = useState(false);
  const [seen, setSeen] = useState(result);
  if (result !== seen) {
    setSeen(result);
    setOpen(false);
  }
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant={variant} size="sm" aria-label={triggerLabel} title={triggerLabel}>
          {trigger}
        </Button>
      </DialogTrigger>
      <ConfirmDialogContent
        labels={{ title, confirm, cancel: t("cancel"), close: t("close") }}
        description={description}
        blockDescription
        fields={fields}
      />
    </Dialog>
  );
}
