import { useNavigation } from "react-router";

/** True while a form is being sent or the page reloads: its buttons wait. */
export function useBusy(): boolean {
  return useNavigation().state !== "idle";
}
