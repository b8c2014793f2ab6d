import { cn } from "~/lib/utils";

/** The outcome of a form an admin or customer just sent: green when it worked, red when it did not. */
export function StatusMessage({
  ok,
  children,
  className,
}: {
  ok: boolean;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <p
      role="status"
      className={cn(
        "rounded-md p-3 text-sm",
        ok ? "bg-green-50 text-green-800" : "bg-red-50 text-red-700",
        className,
      )}
    >
      {children}
    </p>
  );
}
