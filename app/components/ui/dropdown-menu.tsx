import { Slot } from "radix-ui";
import {
  createContext,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentProps,
  type KeyboardEvent,
  type MouseEvent,
} from "react";
import { cn } from "~/lib/utils";

/**
 * A menu button's menu (WAI-ARIA "menu button" pattern), written here rather than taken from Radix: Radix's
 * menu brought 18 KiB of gzip script (a positioning engine, a collection, roving focus) to every signed-in
 * page for two small menus, the notification bell and the admin's account menu (ADR 29).
 *
 * What it does: the trigger says whether the menu is open (aria-expanded) and opens it on a click, Enter,
 * Space or the arrow keys; opened from the keyboard the first item takes focus (ArrowUp: the last), opened
 * with a pointer the menu itself does. Inside, the arrows, Home and End move between the items that are not
 * disabled; Enter and Space choose; Escape closes and gives focus back to the trigger; Tab and a click
 * elsewhere close. It is not modal: the rest of the page stays as it is for assistive technology.
 * The menu sits under its trigger, on the trigger's end side when `align="end"` (its left in Arabic),
 * moved sideways as far as it takes to stay inside the screen.
 */
interface MenuState {
  open: boolean;
  setOpen: (open: boolean, focus?: "first" | "last" | "menu") => void;
  focus: "first" | "last" | "menu";
  trigger: HTMLElement | null;
  setTrigger: (element: HTMLElement | null) => void;
  triggerId: string;
  menuId: string;
}

const MenuContext = createContext<MenuState | null>(null);

function useMenu(): MenuState {
  const menu = useContext(MenuContext);
  if (!menu) throw new Error("a menu part outside <DropdownMenu>");
  return menu;
}

export function DropdownMenu({
  children,
  onOpenChange,
}: {
  children: React.ReactNode;
  onOpenChange?: (open: boolean) => void;
}) {
  const [open, setOpenState] = useState(false);
  const [focus, setFocus] = useState<MenuState["focus"]>("menu");
  // The trigger element as state, not a ref: the menu gives it focus back on Escape.
  const [trigger, setTrigger] = useState<HTMLElement | null>(null);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const id = useId();
  const setOpen: MenuState["setOpen"] = (next, where = "menu") => {
    setFocus(where);
    setOpenState(next);
    if (next !== open) onOpenChange?.(next);
  };
  // A press outside closes it (focus stays where the press put it).
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!wrapperRef.current?.contains(event.target as Node)) {
        setOpenState(false);
        onOpenChange?.(false);
      }
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open, onOpenChange]);
  return (
    <MenuContext.Provider
      value={{
        open,
        setOpen,
        focus,
        trigger,
        setTrigger,
        triggerId: `${id}-trigger`,
        menuId: `${id}-menu`,
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
      aria-expanded={menu.open}
      aria-controls={menu.open ? menu.menuId : undefined}
      data-state={menu.open ? "open" : "closed"}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        onClick?.(event);
        // A click the keyboard made (Enter, Space) has no pointer detail: focus goes to the first item.
        menu.setOpen(!menu.open, event.detail === 0 ? "first" : "menu");
      }}
      onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
        onKeyDown?.(event);
        if (event.key === "ArrowDown" || event.key === "ArrowUp") {
          event.preventDefault();
          menu.setOpen(true, event.key === "ArrowDown" ? "first" : "last");
        }
      }}
      {...props}
    />
  );
}

const ITEM = '[role="menuitem"]:not([aria-disabled="true"])';
/** The least room left between an open menu and the screen's edge, in px. */
const SCREEN_MARGIN = 8;

export function DropdownMenuContent({
  className,
  align = "start",
  children,
  ...props
}: ComponentProps<"div"> & { align?: "start" | "end" }) {
  const menu = useMenu();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!menu.open) return;
    const items = [...(ref.current?.querySelectorAll<HTMLElement>(ITEM) ?? [])];
    const target =
      menu.focus === "first" ? items[0] : menu.focus === "last" ? items.at(-1) : undefined;
    (target ?? ref.current)?.focus();
  }, [menu.open, menu.focus]);
  // Kept inside the screen: on a phone a menu can be wider than the room beside its trigger (the bell's
  // list is 320 px, its trigger mid-bar), and one hanging past the edge is cut off, not scrolled to.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!menu.open || !element) return;
    const keepInside = () => {
      element.style.translate = "";
      const { left, right } = element.getBoundingClientRect();
      const room = document.documentElement.clientWidth;
      const shift =
        left < SCREEN_MARGIN
          ? SCREEN_MARGIN - left
          : right > room - SCREEN_MARGIN
            ? room - SCREEN_MARGIN - right
            : 0;
      if (shift) element.style.translate = `${shift}px 0`;
    };
    keepInside();
    window.addEventListener("resize", keepInside);
    return () => window.removeEventListener("resize", keepInside);
  }, [menu.open]);
  if (!menu.open) return null;
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
      menu.setOpen(false);
      menu.trigger?.focus();
    } else if (event.key === "Tab") menu.setOpen(false);
  };
  return (
    <div
      ref={ref}
      role="menu"
      id={menu.menuId}
      aria-labelledby={menu.triggerId}
      aria-orientation="vertical"
      tabIndex={-1}
      data-state="open"
      onKeyDown={move}
      className={cn(
        "absolute top-full z-50 mt-1 min-w-48 rounded-md border bg-background p-1 shadow-md outline-none",
        align === "end" ? "end-0" : "start-0",
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
    menu.setOpen(false);
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
