import { redirect } from "react-router";

// Spec section 2: /my-services is an alias.
export function loader() {
  return redirect("/dashboard", 301);
}
