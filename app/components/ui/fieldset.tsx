import type { ReactNode } from "react";

/** A group of fields named by its legend (one language's texts, a product's specs, an egg's variables). */
export function Fieldset({ legend, children }: { legend: ReactNode; children: ReactNode }) {
  return (
    <fieldset className="grid gap-3">
      <legend className="text-sm font-medium">{legend}</legend>
      {children}
    </fieldset>
  );
}

/**
 * What a field typed in one language says of itself (spread into its spec or its props): its `lang`,
 * and its direction, right to left for Arabic.
 */
export function typedIn(language: string) {
  return { lang: language, dir: language === "ar" ? ("rtl" as const) : ("ltr" as const) };
}
