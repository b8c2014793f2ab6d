import { Slot } from "radix-ui";
import {
  createContext,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ComponentProps,
  type KeyboardEvent,
  type MouseEvent,
} from "react";
import { cn } from "~/lib/utils";
import { anchorNameOf, followPlace, followPopover } from "./menu-popover";

/**
 * A menu button's menu (WAI-ARIA "menu button" pattern), written here rather than taken from Radix: Radix's
 * menu brought 18 KiB of gzip script (a positioning engine, a collection, roving focus) to every signed-in
 * page for two small menus, the notification bell and the admin's account menu (ADR 29).
 *
 * The menu is a popover in the server's HTML (`popover="auto"`, its trigger's `popovertarget`): a tap on
 * the trigger opens it before the page's scripts have run (a slow phone, the page right after signing
 * in), and the browser closes it on Escape or a tap elsewhere (ADR 50, as the phone menu, ADR 23). CSS
 * places it (app.css, `.menu-popover`). Until React runs the trigger carries no aria-expanded: the browser
 * says itself whether a popover's button is expanded.
 *
 * What React adds on the same markup: the trigger says whether the menu is open (aria-expanded) and opens
 * it on a click, Enter, Space or the arrow keys; opened from the keyboard the first item takes focus
 * (ArrowUp: the last), opened with a pointer the menu itself does. Inside, the arrows, Home and End move
 * between the items that are not disabled; Enter and Space choose; Escape closes and gives focus back to
 * the trigger; Tab and a press elsewhere close. It is not modal: the rest of the page stays as it is for
 * assistive technology. The menu sits under its trigger, on the trigger's end side when `align="end"`
 * (its left in Arabic), moved sideways as far as it takes to stay inside the screen.
 */
type Focus = "first" | "last" | "menu" | "stay";

interface MenuState {
  open: boolean;
  /** What takes the focus as the menu opens ("stay": nothing moves it, it was open before React ran). */
  focus: Focus;
  /** False in the server's HTML and while React hydrates it: the browser alone runs the menu then. */
  live: boolean;
  show: (focus: Focus) => void;
  hide: () => void;
  /** A click on the trigger is about to toggle the menu (the browser does, through popovertarget). */
  clicked: (focus: Focus) => void;
  trigger: HTMLElement | null;
  setTrigger: (element: HTMLElement | null) => void;
  setContent: (element: HTMLElement | null) => void;
  /** A browser without popovers (before Chrome 114, Firefox 125, Safari 17): React shows and hides it. */
  noPopovers: boolean;
  triggerId: string;
  menuId: string;
  anchor: string;
}

const MenuContext = createContext<MenuState | null>(null);

function useMenu(): MenuState {
  const menu = useContext(MenuContext);
  if (!menu) throw new Error("a menu part outside <DropdownMenu>");
  return menu;
}

const noSubscription = () => () => {};
const isOpen = (menu: HTMLElement) => menu.matches(":popover-open");

export function DropdownMenu({
  children,
  onOpenChange,
}: {
  children: React.ReactNode;
  onOpenChange?: (open: boolean) => void;
}) {
  const [state, setState] = useState<{ open: boolean; focus: Focus }>({
    open: false,
    focus: "menu",
  });
  // The trigger and the menu as state, not refs: the menu gives the trigger focus back on Escape, and
  // the menu's listeners are set once it is there.
  const [trigger, setTrigger] = useState<HTMLElement | null>(null);
  const [content, setContent] = useState<HTMLElement | null>(null);
  const live = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const noPopovers = live && typeof HTMLElement.prototype.showPopover !== "function";
  const wrapperRef = useRef<HTMLDivElement>(null);
  // What the next opening gives the focus to: set by the click or key that asks for it.
  const intent = useRef<Focus>("menu");
  const latest = useRef(onOpenChange);
  useLayoutEffect(() => {
    latest.current = onOpenChange;
  });
  const id = useId();
  // What onOpenChange was last told: it hears of a change once.
  const told = useRef(false);
  const change = (open: boolean, focus: Focus) => {
    setState({ open, focus });
    if (told.current === open) return;
    told.current = open;
    latest.current?.(open);
  };

  // The browser opens and closes the popover (its trigger, Escape, a tap elsewhere, our calls below):
  // React's state follows it. Opened before React ran, it is open as React arrives: the focus stays
  // where it is (and the bell marks its list read).
  useEffect(() => {
    if (!content || noPopovers) return;
    return followPopover(content, (open, before) => {
      change(open, before ? "stay" : intent.current);
      intent.current = "menu";
    });
  }, [content, noPopovers]);

  const show = (focus: Focus) => {
    if (!content) return;
    if (noPopovers) return change(true, focus);
    if (isOpen(content)) return;
    intent.current = focus;
    // The trigger as the popover's source: a press on it is then no press outside the menu.
    content.showPopover(trigger ? { source: trigger } : undefined);
  };
  const hide = () => {
    if (!content) return;
    if (noPopovers) return void (state.open && change(false, "menu"));
    if (isOpen(content)) content.hidePopover();
  };
  const clicked = (focus: Focus) => {
    if (noPopovers) return state.open ? hide() : show(focus);
    intent.current = focus;
  };

  // A press outside closes it at once (focus stays where the press put it); the browser's own light
  // dismiss would wait for the press to end.
  useEffect(() => {
    if (!state.open) return;
    const outside = (event: PointerEvent) => {
      if (!wrapperRef.current?.contains(event.target as Node)) hide();
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  });

  return (
    <MenuContext.Provider
      value={{
        ...state,
        live,
        show,
        hide,
        clicked,
        trigger,
        setTrigger,
        setContent,
        noPopovers,
        triggerId: `${id}-trigger`,
        menuId: `${id}-menu`,
        anchor: anchorNameOf(id),
      }}
    >
      <div ref={wrapperRef} className="relative inline-flex">
        {children}
      </div>
    </MenuContext.Provider>
  );
}

export function DropdownMenuTrigger({
  asChild,
  onClick,
  onKeyDown,
  style,
  ...props
}: ComponentProps<"button"> & { asChild?: boolean }) {
  const menu = useMenu();
  const { setTrigger } = menu;
  const Comp = asChild ? Slot.Root : "button";
  return (
    <Comp
      ref={setTrigger}
      id={menu.triggerId}
      aria-haspopup="menu"
      aria-expanded={menu.live ? menu.open : undefined}
      aria-controls={menu.open ? menu.menuId : undefined}
      data-state={menu.open ? "open" : "closed"}
      popoverTarget={menu.menuId}
      style={{ anchorName: menu.anchor, ...style }}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        onClick?.(event);
        // A click the keyboard made (Enter, Space) has no pointer detail: focus goes to the first item.
        menu.clicked(event.detail === 0 ? "first" : "menu");
      }}
      onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
        onKeyDown?.(event);
        if (event.key === "ArrowDown" || event.key === "ArrowUp") {
          event.preventDefault();
          menu.show(event.key === "ArrowDown" ? "first" : "last");
        }
      }}
      {...props}
    />
  );
}

const ITEM = '[role="menuitem"]:not([aria-disabled="true"])';

export function DropdownMenuContent({
  className,
  align = "start",
  style,
  children,
  ...props
}: ComponentProps<"div"> & { align?: "start" | "end" }) {
  const menu = useMenu();
  const ref = useRef<HTMLDivElement>(null);
  const { setContent } = menu;
  useLayoutEffect(() => {
    setContent(ref.current);
    return () => setContent(null);
  }, [setContent]);
  useEffect(() => {
    if (!menu.open || menu.focus === "stay") return;
    const items = [...(ref.current?.querySelectorAll<HTMLElement>(ITEM) ?? [])];
    const target =
      menu.focus === "first" ? items[0] : menu.focus === "last" ? items.at(-1) : undefined;
    (target ?? ref.current)?.focus();
  }, [menu.open, menu.focus]);
  useLayoutEffect(() => {
    if (!menu.open || !ref.current) return;
    return followPlace(ref.current, menu.trigger, align);
  }, [menu.open, menu.trigger, align]);
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(ref.current?.querySelectorAll<HTMLElement>(ITEM) ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const go = (index: number) => {
      event.preventDefault();
      items[(index + items.length) % items.length]?.focus();
    };
    if (event.key === "ArrowDown") go(at + 1);
    else if (event.key === "ArrowUp") go(at < 0 ? -1 : at - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(-1);
    else if (event.key === "Escape") {
      event.preventDefault();
      menu.hide();
      menu.trigger?.focus();
    } else if (event.key === "Tab") menu.hide();
  };
  return (
    <div
      ref={ref}
      role="menu"
      id={menu.menuId}
      // Without popovers React shows and hides it itself (the attribute would mean nothing there).
      popover={menu.noPopovers ? undefined : "auto"}
      hidden={menu.noPopovers ? !menu.open : undefined}
      aria-labelledby={menu.triggerId}
      aria-orientation="vertical"
      tabIndex={-1}
      data-state={menu.open ? "open" : "closed"}
      data-align={align}
      onKeyDown={move}
      style={{ positionAnchor: menu.anchor, ...style }}
      className={cn(
        "menu-popover z-50 min-w-48 rounded-md border bg-background p-1 text-foreground shadow-md outline-none",
        className,
      )}
      {...props}
    >
      {children}
    </div>
  );
}

export function DropdownMenuItem({
  className,
  asChild,
  disabled,
  onSelect,
  ...props
}: ComponentProps<"div"> & {
  asChild?: boolean;
  disabled?: boolean;
  /** Chosen by a click, Enter or Space; the menu closes afterwards. */
  onSelect?: () => void;
}) {
  const menu = useMenu();
  const Comp = asChild ? Slot.Root : "div";
  const choose = () => {
    if (disabled) return;
    onSelect?.();
    menu.hide();
  };
  return (
    <Comp
      role="menuitem"
      tabIndex={-1}
      aria-disabled={disabled || undefined}
      data-disabled={disabled ? "" : undefined}
      className={cn(
        "flex cursor-pointer items-center gap-2 rounded-sm px-2 py-1.5 text-sm outline-none select-none hover:bg-muted focus:bg-muted",
        className,
      )}
      // Focus follows the pointer, as the arrows move it, so one item is marked at a time.
      onPointerMove={(event: React.PointerEvent<HTMLElement>) => {
        if (!disabled) event.currentTarget.focus();
      }}
      onClick={choose}
      onKeyDown={(event: KeyboardEvent<HTMLElement>) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        // A link chooses itself on Enter (its own click); Space, and any key on another item, do here.
        if (event.key === "Enter" && event.currentTarget.tagName === "A") return;
        event.preventDefault();
        event.currentTarget.click();
      }}
      {...props}
    />
  );
}

export function DropdownMenuLabel({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("px-2 py-1.5 text-sm font-semibold", className)} {...props} />;
}
