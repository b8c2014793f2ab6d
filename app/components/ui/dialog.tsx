import { XIcon } from "lucide-react";
import { Slot } from "radix-ui";
import {
  createContext,
  use,
  useEffect,
  useId,
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
import { useBackdropClose, useModalSession } from "./modal-session";

// The kit's dialogs are the browser's own <dialog>, opened with showModal(): the browser puts it in the top
// layer above everything, makes the rest of the page inert (no click, no focus, hidden from assistive
// technology), moves the focus in and sends `cancel` on Escape. What is left to do here is small: open and
// close it with React's state, close it on a click on the backdrop, keep the page behind from scrolling,
// and give the focus back to the button that opened it (modal-session.ts). Radix Dialog did all of it in
// JavaScript, about 12 KiB gzip (docs/ui-kit.md).
//
// A dialog `inPage` is in the server's HTML, and its trigger opens it before the page's scripts have run
// (ADR 50): the trigger's `commandfor`/`command="show-modal"` has the browser show it modal (Chrome 135,
// Firefox 144, Safari 26.2), and where the browser knows no commands, its `popovertarget` shows it as a
// popover (the dialog is one too: Safari 17 to 26.1), not modal but closed by Escape or a tap
// outside. Once React runs it drives the same element as any other dialog.

interface DialogState {
  open: boolean;
  setOpen: (open: boolean) => void;
  trigger: RefObject<HTMLElement | null>;
  titleId: string;
  descriptionId: string;
  /** The dialog element's id when it is in the page (`inPage`). */
  pageId?: string;
}

const DialogContext = createContext<DialogState | null>(null);

function useDialog(part: string): DialogState {
  const state = use(DialogContext);
  if (!state) throw new Error(`${part} must be inside a Dialog`);
  return state;
}

/**
 * A dialog's state: controlled with `open` and `onOpenChange`, else it opens (from `defaultOpen`) and
 * closes on its own and tells `onOpenChange`. `inPage`: the dialog is written into the page where its
 * ModalDialog stands, closed, and opens before the scripts run (above). It stays inside any form it is
 * written in (the order form holds a coin dialog), so it holds no form of its own then (a form in a form
 * does not post); its trigger is a button, and the kit's buttons in it do not submit.
 */
export function Dialog({
  open: controlled,
  defaultOpen = false,
  onOpenChange,
  inPage = false,
  children,
}: {
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  inPage?: boolean;
  children: ReactNode;
}) {
  const [own, setOwn] = useState(defaultOpen);
  const open = controlled ?? own;
  const trigger = useRef<HTMLElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const pageId = `${useId()}-dialog`;
  const setOpen = (next: boolean) => {
    if (controlled === undefined) setOwn(next);
    onOpenChange?.(next);
  };
  return (
    <DialogContext
      value={{
        open,
        setOpen,
        trigger,
        titleId,
        descriptionId,
        pageId: inPage ? pageId : undefined,
      }}
    >
      {children}
    </DialogContext>
  );
}

type DialogButtonProps = ComponentProps<"button"> & { asChild?: boolean };

/**
 * A button of its Dialog's (with `asChild`, the element it wraps): its own `onClick` first, then, unless
 * that prevented it, `act`. `commands` (a dialog in the page): the browser's own, which act before the
 * scripts run and are prevented once React does it.
 */
function DialogButton({
  asChild = false,
  onClick,
  act,
  commands,
  ...props
}: DialogButtonProps & { act: () => void; commands?: ComponentProps<"button"> }) {
  const Comp = asChild ? Slot.Root : "button";
  return (
    <Comp
      type={asChild ? undefined : "button"}
      {...commands}
      {...props}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented) return;
        if (commands) event.preventDefault();
        act();
      }}
    />
  );
}

/**
 * The button that opens (or closes) its Dialog; the focus comes back to it when the dialog closes. For a
 * dialog in the page it carries the commands that open it before the scripts run; until they have, no
 * aria-expanded (the browser says whether a popover's button is expanded).
 */
export function DialogTrigger(props: DialogButtonProps) {
  const { open, setOpen, trigger, pageId } = useDialog("DialogTrigger");
  const live = useLive();
  const commands: ComponentProps<"button"> | undefined = pageId
    ? { type: "button", commandfor: pageId, command: "show-modal", popoverTarget: pageId }
    : undefined;
  return (
    <DialogButton
      aria-haspopup="dialog"
      aria-expanded={live || !pageId ? open : undefined}
      {...props}
      commands={commands}
      ref={trigger as RefObject<HTMLButtonElement | null>}
      act={() => setOpen(!open)}
    />
  );
}

/**
 * Closes its Dialog (with `asChild`, the element it wraps does: a link that also leaves the page). In a
 * dialog in the page, a DialogClose's own button closes it before the scripts run too.
 */
export function DialogClose({ asChild, ...props }: DialogButtonProps) {
  const { setOpen, pageId } = useDialog("DialogClose");
  const commands: ComponentProps<"button"> | undefined =
    pageId && !asChild
      ? {
          commandfor: pageId,
          command: "close",
          popoverTarget: pageId,
          popoverTargetAction: "hide",
        }
      : undefined;
  return (
    <DialogButton asChild={asChild} {...props} commands={commands} act={() => setOpen(false)} />
  );
}

const noSubscription = () => () => {};

/** False in the server's HTML and while React hydrates it, true once React runs the page. */
function useLive() {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

type ModalProps = ComponentProps<"dialog"> & { returnFocus?: RefObject<HTMLElement | null> };

/**
 * The modal itself: a <dialog> shown with showModal() while its Dialog is open. Escape and a click on the
 * backdrop close it; closed, the focus goes to `returnFocus`, else to the DialogTrigger, else to what had
 * it before. Name it (`aria-label`, or `aria-labelledby` as DialogContent does). The admin drawer uses it
 * directly. Not in the page while closed (nor in the server's HTML), unless the Dialog is `inPage`.
 */
export function ModalDialog(props: ModalProps) {
  const { open, pageId } = useDialog("ModalDialog");
  // On the client only: a portal to the body, so a dialog opened from inside a form or a table is not
  // part of it (a form in a form would not post).
  const live = useLive();
  if (pageId) return <PageDialog {...props} />;
  if (!open || !live) return null;
  return createPortal(<OpenDialog {...props} />, document.body);
}

function OpenDialog({ returnFocus, onPointerDown, onClick, ...props }: ModalProps) {
  const state = useDialog("ModalDialog");
  const ref = useRef<HTMLDialogElement>(null);
  const close = () => state.setOpen(false);
  useModalSession(ref, true, close, () => [returnFocus?.current, state.trigger.current]);
  const backdrop = useBackdropClose(close, onPointerDown, onClick);
  return <dialog ref={ref} {...props} {...backdrop} />;
}

/**
 * A dialog in the page: always there, closed until its trigger (or React) opens it. Opened before React
 * ran, it is open as React arrives, and React's state follows it, modal from then on.
 */
function PageDialog({ returnFocus, onPointerDown, onClick, ...props }: ModalProps) {
  const state = useDialog("ModalDialog");
  const ref = useRef<HTMLDialogElement>(null);
  const close = () => state.setOpen(false);
  const { setOpen } = state;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Shown as a popover (a browser without commands): modal from now on. (Asked only where popovers
    // exist: an older browser refuses the selector.)
    if (typeof dialog.hidePopover === "function" && dialog.matches(":popover-open")) {
      dialog.hidePopover();
      dialog.showModal();
    }
    if (dialog.open) setOpen(true);
    // Once, as React arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useModalSession(ref, state.open, close, () => [returnFocus?.current, state.trigger.current]);
  const backdrop = useBackdropClose(close, onPointerDown, onClick);
  return (
    <dialog ref={ref} id={state.pageId} popover="auto" closedby="any" {...props} {...backdrop} />
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
