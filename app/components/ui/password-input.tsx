import { EyeIcon, EyeOffIcon } from "lucide-react";
import { useState, type ComponentProps } from "react";
import { Input } from "./input";

export function PasswordInput({
  showLabel,
  hideLabel,
  ...props
}: Omit<ComponentProps<"input">, "type"> & { showLabel: string; hideLabel: string }) {
  const [visible, setVisible] = useState(false);
  // On a page served without React, password-input.enhance.ts toggles the same attributes (data-*-label).
  // The field is always left to right; the toggle sits at the page's end (the left in Arabic), so the
  // room for it is on the field's end in English and on its start in Arabic.
  return (
    <div className="relative">
      <Input
        type={visible ? "text" : "password"}
        className="pe-10 rtl:ps-10 rtl:pe-3"
        dir="ltr"
        {...props}
      />
      <button
        type="button"
        className="group absolute inset-y-0 end-0 flex w-10 items-center justify-center text-muted-foreground hover:text-foreground"
        onClick={() => setVisible((value) => !value)}
        aria-label={visible ? hideLabel : showLabel}
        aria-pressed={visible}
        aria-controls={props.id}
        data-password-toggle=""
        data-show-label={showLabel}
        data-hide-label={hideLabel}
      >
        {/* The icon follows aria-pressed, whichever script sets it. */}
        <EyeIcon className="size-4 group-aria-pressed:hidden" aria-hidden />
        <EyeOffIcon className="hidden size-4 group-aria-pressed:block" aria-hidden />
      </button>
    </div>
  );
}
