import { Trash2Icon } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "~/components/ui/dialog";
import { cn } from "~/lib/utils";

/**
 * A delete button that asks first: an alert dialog whose form posts the given fields to the page's
 * action. On its own it closes when sent and the page then says what happened; a page that wants to
 * keep it open on a refusal passes `state` (and shows the refusal as `children`).
 */
export function ConfirmDialog({
  fields,
  labels,
  state,
  triggerClassName,
  textClassName,
  children,
}: {
  fields: Record<string, string>;
  labels: {
    /** What the trigger shows beside its icon. */
    trigger: ReactNode;
    /** The trigger's accessible name, naming what it deletes. */
    triggerFor: string;
    title: string;
    text: string;
    confirm: string;
    cancel: string;
    close: string;
  };
  state?: { open: boolean; onOpenChange: (open: boolean) => void };
  triggerClassName?: string;
  textClassName?: string;
  /** Shown between the question and the buttons (e.g. why the last try was refused). */
  children?: ReactNode;
}) {
  const [ownOpen, setOwnOpen] = useState(false);
  const busy = useNavigation().state !== "idle";
  return (
    <Dialog open={state ? state.open : ownOpen} onOpenChange={state?.onOpenChange ?? setOwnOpen}>
      <DialogTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className={cn("text-destructive", triggerClassName)}
          aria-label={labels.triggerFor}
          title={labels.triggerFor}
        >
          <Trash2Icon aria-hidden />
          {labels.trigger}
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={labels.close} role="alertdialog">
        <DialogHeader>
          <DialogTitle>{labels.title}</DialogTitle>
          <DialogDescription className={textClassName}>{labels.text}</DialogDescription>
        </DialogHeader>
        {children}
        <Form
          method="post"
          className="flex flex-wrap justify-end gap-2"
          onSubmit={state ? undefined : () => setOwnOpen(false)}
        >
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <DialogClose asChild>
            <Button type="button" variant="outline">
              {labels.cancel}
            </Button>
          </DialogClose>
          <Button type="submit" variant="destructive" disabled={busy}>
            {labels.confirm}
          </Button>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
