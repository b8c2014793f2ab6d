import { Trash2Icon } from "lucide-react";
import { useState } from "react";
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

/**
 * A delete button that asks first: an alert dialog whose form posts the given fields to the page's
 * action. It closes when sent; the page then says what happened.
 */
export function ConfirmDeleteDialog({
  fields,
  labels,
}: {
  fields: Record<string, string>;
  labels: {
    trigger: string;
    /** The trigger's accessible name, naming what it deletes. */
    triggerFor: string;
    title: string;
    text: string;
    confirm: string;
    cancel: string;
    close: string;
  };
}) {
  const [open, setOpen] = useState(false);
  const busy = useNavigation().state !== "idle";
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className="text-destructive"
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
          <DialogDescription className="wrap-anywhere">{labels.text}</DialogDescription>
        </DialogHeader>
        <Form
          method="post"
          className="flex flex-wrap justify-end gap-2"
          onSubmit={() => setOpen(false)}
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
