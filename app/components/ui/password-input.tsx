import { EyeIcon, EyeOffIcon } from "lucide-react";
import { useState, type ComponentProps } from "react";
import { Input } from "./input";

export function PasswordInput({
  showLabel,
  hideLabel,
  ...props
}: Omit<ComponentProps<"input">, "type"> & { showLabel: string; hideLabel: string }) {
  const [visible, setVisible] = useState(false);
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
        className="absolute inset-y-0 end-0 flex w-10 items-center justify-center text-muted-foreground hover:text-foreground"
        onClick={() => setVisible((value) => !value)}
        aria-label={visible ? hideLabel : showLabel}
        aria-pressed={visible}
        aria-controls={props.id}
      >
        {visible ? (
          <EyeOffIcon className="size-4" aria-hidden />
        ) : (
          <EyeIcon className="size-4" aria-hidden />
        )}
      </button>
    </div>
  );
}
