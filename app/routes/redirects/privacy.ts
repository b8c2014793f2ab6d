import { redirect } from "react-router";

// Spec section 2: /privacy is an alias.
export function loader() {
  return redirect("/", 301);
}
