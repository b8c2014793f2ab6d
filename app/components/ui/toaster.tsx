import { Toaster as Sonner } from "sonner";

/** Spec section 9: 4000 ms, at most three visible. */
export function Toaster({ dir }: { dir: "ltr" | "rtl" }) {
  return (
    <Sonner
      duration={4000}
      visibleToasts={3}
      richColors
      closeButton
      dir={dir}
      position="top-center"
    />
  );
}
