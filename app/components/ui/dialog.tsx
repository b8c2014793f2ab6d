import { XIcon } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import type { ComponentProps, ReactNode } from "react";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/utils";

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export function DialogContent({
  className,
  children,
  closeLabel,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { closeLabel: string }) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
      <DialogPrimitive.Content
        className={cn(
          "fixed top-1/2 left-1/2 z-50 grid max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border bg-background p-6 shadow-lg",
          className,
        )}
        {...props}
      >
        {children}
        <DialogPrimitive.Close
          className="absolute end-4 top-4 rounded-sm opacity-70 hover:opacity-100"
          aria-label={closeLabel}
        >
          <XIcon className="size-4" aria-hidden />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("flex flex-col gap-2 text-start", className)} {...props} />;
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn("text-lg font-semibold", className)} {...props} />;
}

export function DialogDescription({
  className,
  ...props
}: ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description
      className={cn("text-sm text-muted-foreground", className)}
      {...props}
    />
  );
}

/**
 * A dialog's panel: the content (with its close button named `closeLabel`) headed by `title` and
 * `description`, then `children`. `descriptionProps` go to the DialogDescription (`dir`, a class, or
 * `asChild` for a description that is a block of its own).
 */
export function DialogPanel({
  title,
  description,
  descriptionProps,
  children,
  ...props
}: ComponentProps<typeof DialogContent> & {
  title: ReactNode;
  description: ReactNode;
  descriptionProps?: ComponentProps<typeof DialogDescription>;
}) {
  return (
    <DialogContent {...props}>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription {...descriptionProps}>{description}</DialogDescription>
      </DialogHeader>
      {children}
    </DialogContent>
  );
}

/**
 * A whole dialog: its `trigger` (a button, opening it) and its DialogPanel. Controlled when given `open`
 * and `onOpenChange`, else it opens and closes on its own.
 */
export function DialogShell({
  trigger,
  open,
  onOpenChange,
  ...panel
}: ComponentProps<typeof DialogPanel> & {
  trigger: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogPanel {...panel} />
    </Dialog>
  );
}

/**
 * The two buttons that end a dialog's form: cancel (closes it, sends nothing) and submit (`variant`,
 * `destructive` for a confirmation), which waits while `busy`.
 */
export function DialogFormButtons({
  cancel,
  submit,
  variant,
  busy,
}: {
  cancel: ReactNode;
  submit: ReactNode;
  variant?: "destructive";
  busy: boolean;
}) {
  return (
    <>
      <DialogClose asChild>
        <Button type="button" variant="outline">
          {cancel}
        </Button>
      </DialogClose>
      <Button type="submit" variant={variant} disabled={busy}>
        {submit}
      </Button>
    </>
  );
}
