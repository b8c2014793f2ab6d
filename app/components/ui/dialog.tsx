import { XIcon } from "lucide-react";
import { Slot } from "radix-ui";
import {
  createContext,
  use,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ComponentProps,
  type ReactNode,
  type RefObject,
} from "react";
import { createPortal } from "react-dom";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/utils";

// The kit's dialogs are the browser's own <dialog>, opened with showModal(): the browser puts it in the top
// layer above everything, makes the rest of the page inert (no click, no focus, hidden from assistive
// technology), moves the focus in and sends `cancel` on Escape. What is left to do here is small: open and
// close it with React's state, close it on a click on the backdrop, keep the page behind from scrolling,
// and give the focus back to the button that opened it. Radix Dialog did all of it in JavaScript, about
// 12 KiB gzip (docs/ui-kit.md).

interface DialogState {
  open: boolean;
  setOpen: (open: boolean) => void;
  trigger: RefObject<HTMLElement | null>;
  titleId: string;
  descriptionId: string;
}

const DialogContext = createContext<DialogState | null>(null);

function useDialog(part: string): DialogState {
  const state = use(DialogContext);
  if (!state) throw new Error(`${part} must be inside a Dialog`);
  return state;
}

/**
 * A dialog's state: controlled with `open` and `onOpenChange`, else it opens (from `defaultOpen`) and
 * closes on its own and tells `onOpenChange`.
 */
export function Dialog({
  open: controlled,
  defaultOpen = false,
  onOpenChange,
  children,
}: {
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  children: ReactNode;
}) {
  const [own, setOwn] = useState(defaultOpen);
  const open = controlled ?? own;
  const trigger = useRef<HTMLElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const setOpen = (next: boolean) => {
    if (controlled === undefined) setOwn(next);
    onOpenChange?.(next);
  };
  return (
    <DialogContext value={{ open, setOpen, trigger, titleId, descriptionId }}>
      {children}
    </DialogContext>
  );
}

type DialogButtonProps = ComponentProps<"button"> & { asChild?: boolean };

/**
 * A button of its Dialog's (with `asChild`, the element it wraps): its own `onClick` first, then, unless
 * that prevented it, `act`.
 */
function DialogButton({
  asChild = false,
  onClick,
  act,
  ...props
}: DialogButtonProps & { act: () => void }) {
  const Comp = asChild ? Slot.Root : "button";
  return (
    <Comp
      type={asChild ? undefined : "button"}
      {...props}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) act();
      }}
    />
  );
}

/** The button that opens (or closes) its Dialog; the focus comes back to it when the dialog closes. */
export function DialogTrigger(props: DialogButtonProps) {
  const { open, setOpen, trigger } = useDialog("DialogTrigger");
  return (
    <DialogButton
      aria-haspopup="dialog"
      aria-expanded={open}
      {...props}
      ref={trigger as RefObject<HTMLButtonElement | null>}
      act={() => setOpen(!open)}
    />
  );
}

/** Closes its Dialog (with `asChild`, the element it wraps does: a link that also leaves the page). */
export function DialogClose(props: DialogButtonProps) {
  const { setOpen } = useDialog("DialogClose");
  return <DialogButton {...props} act={() => setOpen(false)} />;
}

// Several dialogs may be open at once (a confirmation over a form): the page scrolls again when the last
// one closes.
let scrollLocks = 0;
let unlockScroll = () => {};

/** Stops the page behind an open dialog from scrolling, keeping the room its scrollbar took. */
function lockScroll() {
  if (scrollLocks++ === 0) {
    const root = document.documentElement;
    const { overflow, scrollbarGutter } = root.style;
    const scrollbar = window.innerWidth - root.clientWidth;
    root.style.overflow = "hidden";
    if (scrollbar > 0) root.style.scrollbarGutter = "stable";
    unlockScroll = () => {
      root.style.overflow = overflow;
      root.style.scrollbarGutter = scrollbarGutter;
    };
  }
  return () => {
    if (--scrollLocks === 0) unlockScroll();
  };
}

const noSubscription = () => () => {};

/** Whether the pointer event is outside the dialog's box: on its backdrop (which belongs to the dialog). */
function onBackdrop(
  dialog: HTMLDialogElement,
  event: { target: EventTarget; clientX: number; clientY: number },
) {
  if (event.target !== dialog) return false;
  const box = dialog.getBoundingClientRect();
  return (
    event.clientX < box.left ||
    event.clientX > box.right ||
    event.clientY < box.top ||
    event.clientY > box.bottom
  );
}

/**
 * The modal itself: a <dialog> shown with showModal() while its Dialog is open, and not in the page
 * otherwise (nor in the server's HTML). Escape and a click on the backdrop close it; closed, the focus goes
 * to `returnFocus`, else to the DialogTrigger, else to what had it before. Name it (`aria-label`, or
 * `aria-labelledby` as DialogContent does). The admin drawer uses it directly.
 */
export function ModalDialog({
  returnFocus,
  ...props
}: ComponentProps<"dialog"> & { returnFocus?: RefObject<HTMLElement | null> }) {
  const { open } = useDialog("ModalDialog");
  // On the client only: a portal to the body, so a dialog opened from inside a form or a table is not
  // part of it (a form in a form would not post).
  const client = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  if (!open || !client) return null;
  return createPortal(<OpenDialog returnFocus={returnFocus} {...props} />, document.body);
}

function OpenDialog({
  returnFocus,
  onPointerDown,
  onClick,
  ...props
}: ComponentProps<"dialog"> & { returnFocus?: RefObject<HTMLElement | null> }) {
  const state = useDialog("ModalDialog");
  const ref = useRef<HTMLDialogElement>(null);
  // The latest state and target, for the listeners and the cleanup of the effect that runs once.
  const latest = useRef({ state, returnFocus });
  useLayoutEffect(() => {
    latest.current = { state, returnFocus };
  });
  const pressedBackdrop = useRef(false);

  useLayoutEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement;
    // Escape: React's state closes it (the browser would close the element only).
    const cancel = (event: Event) => {
      event.preventDefault();
      latest.current.state.setOpen(false);
    };
    // Closed by the browser all the same (a second Escape without a click in between, in Chrome).
    const closed = () => latest.current.state.setOpen(false);
    dialog.addEventListener("cancel", cancel);
    dialog.addEventListener("close", closed);
    if (!dialog.open) dialog.showModal();
    const unlock = lockScroll();
    return () => {
      dialog.removeEventListener("cancel", cancel);
      dialog.removeEventListener("close", closed);
      dialog.close();
      unlock();
      const { state: current, returnFocus: target } = latest.current;
      const back =
        [target?.current, current.trigger.current, opener].find(
          (element): element is HTMLElement =>
            element instanceof HTMLElement && element.isConnected && element !== document.body,
        ) ?? null;
      back?.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      {...props}
      // A click that starts and ends on the backdrop closes it (not a text selection dragged out of it).
      onPointerDown={(event) => {
        onPointerDown?.(event);
        pressedBackdrop.current = onBackdrop(event.currentTarget, event);
      }}
      onClick={(event) => {
        onClick?.(event);
        if (pressedBackdrop.current && onBackdrop(event.currentTarget, event)) state.setOpen(false);
        pressedBackdrop.current = false;
      }}
    />
  );
}

/**
 * A dialog's box, centred over a dimmed page, named by its DialogTitle and described by its
 * DialogDescription, with a close button named `closeLabel` at its end corner.
 */
export function DialogContent({
  className,
  children,
  closeLabel,
  ...props
}: ComponentProps<typeof ModalDialog> & { closeLabel: string }) {
  const { titleId, descriptionId } = useDialog("DialogContent");
  return (
    <ModalDialog
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      className={cn(
        "m-auto open:grid max-h-[90vh] w-[calc(100%-2rem)] max-w-lg gap-4 overflow-y-auto overscroll-contain rounded-xl border bg-background p-6 text-foreground shadow-lg backdrop:bg-black/50",
        className,
      )}
      {...props}
    >
      {children}
      <DialogClose
        className="absolute end-4 top-4 rounded-sm opacity-70 hover:opacity-100"
        aria-label={closeLabel}
      >
        <XIcon className="size-4" aria-hidden />
      </DialogClose>
    </ModalDialog>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("flex flex-col gap-2 text-start", className)} {...props} />;
}

export function DialogTitle({ className, ...props }: ComponentProps<"h2">) {
  const { titleId } = useDialog("DialogTitle");
  return <h2 id={titleId} className={cn("text-lg font-semibold", className)} {...props} />;
}

/** The dialog's description; with `asChild`, the element it wraps (a block of its own, not a <p>). */
export function DialogDescription({
  className,
  asChild = false,
  ...props
}: ComponentProps<"p"> & { asChild?: boolean }) {
  const { descriptionId } = useDialog("DialogDescription");
  const Comp = asChild ? Slot.Root : "p";
  return (
    <Comp
      id={descriptionId}
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
