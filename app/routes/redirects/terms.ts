import { redirect } from "react-router";

// Spec section 2: /terms is an alias.
export function loader() {
  return redirect("/service-terms", 301);
}
