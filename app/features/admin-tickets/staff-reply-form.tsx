import { useState, type ReactNode } from "react";
import { Form } from "react-router";
import { useBusy } from "~/components/ui/use-busy";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import { Textarea } from "~/components/ui/textarea";
import { MAX_MESSAGE_LENGTH } from "~/domain/tickets/tickets";
import { useTranslation } from "~/i18n/use-translation";

/**
 * The staff's answer under a ticket's thread: the reply (field `message`, box `#reply`), its files (the
 * support area's field, given by the page: `files`), and "Internal note", which makes it a note only the
 * staff read, telling the customer nothing and leaving the ticket's status and waiting time as they were.
 * A multipart post (intent `reply`); a refusal keeps what was typed, and the box's choice.
 */
export function StaffReplyForm({
  formKey,
  replyKey,
  files,
  picker,
  result,
  typed,
}: {
  /** The form is drawn anew (empty, with a new key) when this changes: the thread's last message. */
  formKey: number;
  /** The form's key: the same reply or note sent twice is stored once. */
  replyKey: string;
  /** The files field, the support area's (the page hands it over). */
  files: ReactNode;
  /** The canned replies' picker (their area's), above the box it fills. */
  picker?: ReactNode;
  /** What the last post of this form did (a refused file is said by `files`). */
  result?: Pick<ActionResult, "ok" | "message" | "params">;
  /** After a refusal: what was typed, and whether it was a note. */
  typed?: { message?: string; internal?: boolean };
}) {
  const { t } = useTranslation("tickets");
  const busy = useBusy();
  const [internal, setInternal] = useState(typed?.internal ?? false);
  return (
    <Form
      key={formKey}
      method="post"
      encType="multipart/form-data"
      className="grid gap-2"
      data-internal={internal ? "" : undefined}
    >
      <input type="hidden" name="intent" value="reply" />
      <input type="hidden" name="idempotencyKey" value={replyKey} />
      {picker}
      <Label htmlFor="reply">{t("admin.reply")}</Label>
      <Textarea
        id="reply"
        name="message"
        defaultValue={typed?.message}
        required
        rows={5}
        maxLength={MAX_MESSAGE_LENGTH}
        dir="auto"
        variant="plain"
        className={internal ? "border-dashed border-amber-400 bg-amber-50" : undefined}
      />
      {files}
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name="internal"
          value="on"
          defaultChecked={typed?.internal}
          onChange={(event) => setInternal(event.currentTarget.checked)}
          className="mt-1"
        />
        <span>
          <span className="font-medium">{t("notes.checkbox")}</span>
          <span className="block text-muted-foreground">{t("notes.hint")}</span>
        </span>
      </label>
      {result ? <ResultMessage result={result} /> : null}
      <Button type="submit" disabled={busy} className="w-fit">
        {internal ? t("notes.add") : t("admin.send")}
      </Button>
    </Form>
  );
}
