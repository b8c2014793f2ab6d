import { useEffect, useRef } from "react";
import { useLocation, useNavigation } from "react-router";
import { revealFormResult } from "./form-result";

/**
 * Once per form sent on a page that stays (the action answered with data, or sent the browser back to
 * the same address), its answer is revealed (revealFormResult). A redirect elsewhere is left to the new
 * page (the top, or the anchor it names); a search (a GET form) and a fetcher's post are not answers.
 * Mounted once, at the root: every form of every page gets it.
 */
export function useRevealFormResults() {
  const navigation = useNavigation();
  const location = useLocation();
  // The page, not the spot on it: a form may post to an anchor of its own page (#order-status).
  const where = `${location.pathname}${location.search}`;
  // Where the page was when the form was sent, until its answer is drawn.
  const sentFrom = useRef<string | null>(null);
  const sending =
    navigation.state !== "idle" &&
    navigation.formMethod !== undefined &&
    navigation.formMethod.toUpperCase() !== "GET";
  useEffect(() => {
    if (sending) {
      sentFrom.current ??= where;
      return;
    }
    if (navigation.state !== "idle" || sentFrom.current === null) return;
    const from = sentFrom.current;
    sentFrom.current = null;
    if (from === where) revealFormResult(document);
  }, [sending, navigation.state, where]);
}
