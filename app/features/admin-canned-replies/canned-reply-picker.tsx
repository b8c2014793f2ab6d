import { useId, useSyncExternalStore, type ChangeEvent } from "react";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Link } from "~/components/ui/link";
import { Select } from "~/components/ui/select";
import {
  CANNED_LOCALE_LABELS,
  withCannedText,
  type CannedReplyChoice,
  type CannedReplyLocale,
} from "~/domain/tickets/canned-replies";
import { useTranslation } from "~/i18n/use-translation";
import { cn } from "~/lib/utils";

const noSubscription = () => () => {};

/** False while the server renders the page and until React runs in the browser, then true. */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/** The box the reply is typed in: the form's `message` field. */
function replyBoxOf(form: HTMLFormElement | null): HTMLTextAreaElement | null {
  const box = form?.elements.namedItem("message");
  return box instanceof HTMLTextAreaElement ? box : null;
}

/**
 * The canned replies of a ticket's reply form (docs/self-service.md), placed inside that form. Choosing
 * one puts it in the reply box, already in the customer's language with their name and the ticket's
 * number, after what was typed (nothing typed is lost) and ready to edit before sending. Without scripts
 * the select has an "Insert" button that posts the form with its own intent (the reply chosen and what
 * the box held, never in the address) and the page comes back with both in the box, nothing sent; once
 * React runs, choosing is enough and the button goes.
 */
export function CannedReplyPicker({
  replies,
  locale,
}: {
  replies: readonly CannedReplyChoice[];
  /** The customer's language, which the replies are in where they have a text in it. */
  locale: CannedReplyLocale;
}) {
  const { t } = useTranslation("admin-tickets");
  const hydrated = useHydrated();
  const id = useId();
  if (replies.length === 0) return null;
  const suggested = replies.filter((reply) => reply.suggested);
  const others = replies.filter((reply) => !reply.suggested);
  const options = (group: readonly CannedReplyChoice[]) =>
    group.map((reply) => (
      <option key={reply.id} value={reply.id}>
        {reply.title}
      </option>
    ));
  const insert = (event: ChangeEvent<HTMLSelectElement>) => {
    const select = event.currentTarget;
    const reply = replies.find((choice) => String(choice.id) === select.value);
    const box = replyBoxOf(select.form);
    if (!reply || !box) return;
    box.value = withCannedText(box.value, reply.text);
    // Back to "Choose a reply…": the same one may be chosen again.
    select.value = "";
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
    box.dispatchEvent(new Event("input", { bubbles: true }));
  };
  return (
    <div className="grid gap-1">
      <Label htmlFor={`${id}-select`}>{t("cannedReplies.picker.label")}</Label>
      <div className="flex flex-wrap gap-2">
        <Select
          id={`${id}-select`}
          name="canned"
          variant="compact"
          className="min-w-0 flex-1"
          defaultValue=""
          onChange={insert}
          aria-describedby={`${id}-hint`}
        >
          <option value="">{t("cannedReplies.picker.choose")}</option>
          {suggested.length === 0 || others.length === 0 ? (
            options(replies)
          ) : (
            <>
              <optgroup label={t("cannedReplies.picker.suggested")}>{options(suggested)}</optgroup>
              <optgroup label={t("cannedReplies.picker.others")}>{options(others)}</optgroup>
            </>
          )}
        </Select>
        {/* Without scripts: the whole form, the box's text with it, posted as an insert. Its intent comes
            after the form's own "reply" in the posted fields, and the later field is the one read. */}
        <Button
          type="submit"
          name="intent"
          value="insertCanned"
          formNoValidate
          variant="outline"
          size="sm"
          className={cn(hydrated && "hidden")}
        >
          {t("cannedReplies.picker.insert")}
        </Button>
      </div>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {t("cannedReplies.picker.language", { language: t(CANNED_LOCALE_LABELS[locale]) })}{" "}
        <Link to="/admin/tickets/replies" className="text-primary underline underline-offset-2">
          {t("cannedReplies.picker.manage")}
        </Link>
      </p>
    </div>
  );
}
