import { CopyIcon } from "lucide-react";
import type { VariantProps } from "class-variance-authority";
import { Button, type buttonVariants } from "~/components/ui/button";
import { showToast } from "~/components/ui/toaster";

/**
 * A button that copies the text of the element `targetId` and says so in a toast. It works on both kinds
 * of page: React copies on click; on a page served without React, static-toaster.enhance.ts finds it by
 * `data-copy` and does the same with the same texts. `text`, on a React page, is copied instead of the
 * element's text (a list whose items the element's text would run together).
 */
export function CopyButton({
  targetId,
  text,
  label,
  copied,
  failed,
  accessibleName,
  size = "sm",
  variant = "outline",
}: {
  targetId: string;
  /** What to copy, when not the element's text as it stands. */
  text?: string;
  /** The button's visible text. */
  label: string;
  /** The toast when it worked, and when the browser refused. */
  copied: string;
  failed: string;
  /** A fuller name for screen readers when several copy buttons share a page. */
  accessibleName?: string;
  size?: VariantProps<typeof buttonVariants>["size"];
  variant?: VariantProps<typeof buttonVariants>["variant"];
}) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(
        text ?? document.getElementById(targetId)?.textContent ?? "",
      );
      showToast("success", copied);
    } catch {
      showToast("error", failed);
    }
  };
  return (
    <Button
      type="button"
      size={size}
      variant={variant}
      onClick={() => void copy()}
      aria-label={accessibleName}
      data-copy={targetId}
      data-copied={copied}
      data-copy-failed={failed}
    >
      <CopyIcon aria-hidden /> {label}
    </Button>
  );
}
