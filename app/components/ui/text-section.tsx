import type { ReactNode } from "react";
import { cn } from "~/lib/utils";

/** A titled part of a public text page (about, service terms): its heading, then what it says. */
export function TextSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <h2 className="text-2xl font-bold">{title}</h2>
      {children}
    </section>
  );
}

/**
 * A bulleted list of texts (each text is its item's key, so no two may be the same); `className` places
 * it (its top margin) and `spacing` is the room between items.
 */
export function BulletList({
  items,
  className,
  spacing = "space-y-1",
}: {
  items: readonly string[];
  className: string;
  spacing?: "space-y-1" | "space-y-2";
}) {
  return (
    <ul className={cn(className, "list-disc", spacing, "ps-6")}>
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}
