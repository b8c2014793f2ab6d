import { Trash2Icon } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Form } from "react-router";
import { useBusy } from "./use-busy";
import { Button } from "~/components/ui/button";
import { Dialog, DialogFormButtons, DialogPanel, DialogTrigger } from "~/components/ui/dialog";
import { cn } from "~/lib/utils";

export interface ConfirmLabels {
  title: string;
  confirm: string;
  cancel: string;
  /** The dialog's close button's accessible name. */
  close: string;
}

/**
 * The inside of a confirmation (an alert dialog): the question, then a form that posts `fields` to the
 * page's action with a cancel and a destructive confirm button. Put it in a Dialog with its own trigger.
 */
export function ConfirmDialogContent({
  labels,
  description,
  descriptionClassName,
  blockDescription = false,
  fields,
  onSubmit,
  inForm,
  children,
}: {
  labels: ConfirmLabels;
  /** One sentence; with `blockDescription`, any content (paragraphs), wrapped in a div. */
  description: ReactNode;
  descriptionClassName?: string;
  blockDescription?: boolean;
  fields: Record<string, string>;
  onSubmit?: () => void;
  /** Shown between the question and the buttons (e.g. why the last try was refused). */
  children?: ReactNode;
  /** Fields posted with the confirmation (e.g. a fresh proof of identity), above its buttons. */
  inForm?: ReactNode;
}) {
  const busy = useBusy();
  return (
    <DialogPanel
      closeLabel={labels.close}
      role="alertdialog"
      title={labels.title}
      description={blockDescription ? <div>{description}</div> : description}
      descriptionProps={
        blockDescription
          ? { asChild: true, className: descriptionClassName }
          : { className: descriptionClassName }
      }
    >
      {children}
      <Form method="post" className="flex flex-wrap justify-end gap-2" onSubmit={onSubmit}>
        {inForm ? <div className="w-full">{inForm}</div> : null}
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <DialogFormButtons
          cancel={labels.cancel}
          submit={labels.confirm}
          variant="destructive"
          busy={busy}
        />
      </Form>
    </DialogPanel>
  );
}

/**
 * A delete button that asks first (ConfirmDialogContent behind a trash-can button). On its own it closes
 * when sent and the page then says what happened; a page that wants to keep it open on a refusal passes
 * `state` (and shows the refusal as `children`).
 */
export function ConfirmDialog({
  fields,
  labels,
  state,
  triggerClassName,
  textClassName,
  inForm,
  children,
}: {
  fields: Record<string, string>;
  labels: ConfirmLabels & {
    /** What the trigger shows beside its icon. */
    trigger: ReactNode;
    /** The trigger's accessible name, naming what it deletes. */
    triggerFor: string;
    text: string;
  };
  state?: { open: boolean; onOpenChange: (open: boolean) => void };
  triggerClassName?: string;
  textClassName?: string;
  /** Fields posted with the confirmation, above its buttons. */
  inForm?: ReactNode;
  children?: ReactNode;
}) {
  const [ownOpen, setOwnOpen] = useState(false);
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
      <ConfirmDialogContent
        labels={labels}
        description={labels.text}
        descriptionClassName={textClassName}
        fields={fields}
        onSubmit={state ? undefined : () => setOwnOpen(false)}
        inForm={inForm}
      >
        {children}
      </ConfirmDialogContent>
    </Dialog>
  );
}
