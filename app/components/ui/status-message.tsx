import { cn } from "~/lib/utils";
import { formResultProps } from "./form-result";

/**
 * The outcome of a form an admin or customer just sent: green when it worked, red when it did not.
 * `detail` is what another system said (the game panel's answer), on its own line in monospace, left to
 * right. After a post it is brought into view and focused (useRevealFormResults), hence the marker and
 * tabIndex of formResultProps.
 */
export function StatusMessage({
  ok,
  children,
  className,
  detail,
}: {
  ok: boolean;
  children: React.ReactNode;
  className?: string;
  detail?: string | null;
}) {
  return (
    <p
      role="status"
      {...formResultProps}
      className={cn(
        "rounded-md p-3 text-sm",
        ok ? "bg-green-50 text-green-800" : "bg-red-50 text-red-700",
        className,
      )}
    >
      {children}
      {detail ? (
        <span className="block font-mono text-xs" dir="ltr">
          {detail}
        </span>
      ) : null}
    </p>
  );
}
