import { ArrowDownIcon, ArrowUpIcon, PencilIcon, PlusIcon } from "lucide-react";
import { useState } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { DialogFormButtons, DialogShell } from "~/components/ui/dialog";
import { FormFields, type FieldSpec } from "~/components/ui/form-card";
import { ResultMessage } from "~/components/ui/result-message";
import { useBusy } from "~/components/ui/use-busy";
import {
  CANNED_REPLY_LOCALES,
  MAX_CANNED_TEXT_LENGTH,
  MAX_CANNED_TITLE_LENGTH,
  TEXT_FIELDS,
  TEXT_LABELS,
} from "~/domain/tickets/canned-replies";
import { DEPARTMENT_LABELS, DEPARTMENTS } from "~/domain/tickets/tickets";
import { useTranslation } from "~/i18n/use-translation";
import type {
  CannedReply,
  CannedReplyActionResult,
  CannedReplyIntent,
} from "./canned-replies-shared";

/**
 * A dialog whose form posts to the page's action about one reply (or none: the add form): it closes
 * when its action succeeds (the page then says what was done) and shows a refusal inside while it stays
 * open. A result from before it was opened, or about another reply, is not shown in it.
 */
function useReplyDialog(
  result: CannedReplyActionResult | undefined,
  intent: CannedReplyIntent,
  id?: number,
) {
  const [open, setOpen] = useState(false);
  const [handled, setHandled] = useState(result);
  const [dismissed, setDismissed] = useState(result);
  const mine = result?.intent === intent && (id === undefined || result.id === id);
  if (result !== handled) {
    setHandled(result);
    if (result?.ok && mine) setOpen(false);
  }
  const refusal = result && !result.ok && mine && result !== dismissed ? result : undefined;
  const onOpenChange = (next: boolean) => {
    setDismissed(result);
    setOpen(next);
  };
  return { open, onOpenChange, refusal };
}

/** The editor's fields: the title, the department it suits, then a text per language. */
function useReplyFields(): FieldSpec[] {
  const { t } = useTranslation("admin-tickets");
  const { t: tCommon } = useTranslation("common");
  return [
    {
      kind: "input",
      name: "title",
      label: t("cannedReplies.fields.title"),
      hint: t("cannedReplies.fields.titleHint"),
      required: true,
      maxLength: MAX_CANNED_TITLE_LENGTH,
      autoComplete: "off",
      dir: "auto",
    },
    {
      kind: "select",
      name: "department",
      label: t("cannedReplies.fields.department"),
      hint: t("cannedReplies.fields.departmentHint"),
      variant: "validated",
      options: [
        { value: "", label: t("cannedReplies.anyDepartment") },
        ...DEPARTMENTS.map((department) => ({
          value: department,
          label: tCommon(DEPARTMENT_LABELS[department]),
        })),
      ],
    },
    ...CANNED_REPLY_LOCALES.map((locale): FieldSpec => ({
      kind: "textarea",
      name: TEXT_FIELDS[locale],
      label: t(TEXT_LABELS[locale]),
      hint:
        locale === "en"
          ? t("cannedReplies.fields.requiredHint")
          : t("cannedReplies.fields.optionalHint"),
      variant: "validated",
      rows: 6,
      maxLength: MAX_CANNED_TEXT_LENGTH,
      lang: locale,
      dir: locale === "ar" ? "rtl" : "auto",
      ...(locale === "en" ? { required: true } : {}),
    })),
  ];
}

/** The editor's fields as a stored reply fills them. */
function valuesOf(reply: CannedReply): Record<string, string> {
  return {
    title: reply.title,
    department: reply.department ?? "",
    ...Object.fromEntries(
      CANNED_REPLY_LOCALES.map((locale) => [TEXT_FIELDS[locale], reply.texts[locale]]),
    ),
  };
}

/** "New reply" (no `reply`) or a reply's "Edit": the editor in a dialog. */
export function ReplyEditorDialog({
  reply,
  result,
}: {
  reply?: CannedReply;
  result?: CannedReplyActionResult;
}) {
  const { t } = useTranslation("admin-tickets");
  const busy = useBusy();
  const fields = useReplyFields();
  const intent = reply ? "update" : "create";
  const { open, onOpenChange, refusal } = useReplyDialog(result, intent, reply?.id);
  const values = refusal?.values ?? (reply ? valuesOf(reply) : {});
  return (
    <DialogShell
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        reply ? (
          <Button
            variant="outline"
            size="sm"
            aria-label={t("cannedReplies.editFor", { title: reply.title })}
          >
            <PencilIcon aria-hidden />
            {t("cannedReplies.edit")}
          </Button>
        ) : (
          <Button>
            <PlusIcon aria-hidden />
            {t("cannedReplies.add")}
          </Button>
        )
      }
      closeLabel={t("cannedReplies.close")}
      title={
        reply ? t("cannedReplies.editTitle", { title: reply.title }) : t("cannedReplies.addTitle")
      }
      description={t("cannedReplies.formText")}
    >
      {refusal ? <ResultMessage result={refusal} /> : null}
      <Form method="post" className="grid gap-4" noValidate>
        <input type="hidden" name="intent" value={intent} />
        {reply ? <input type="hidden" name="id" value={reply.id} /> : null}
        <p className="text-sm text-muted-foreground">{t("cannedReplies.placeholders")}</p>
        <FormFields
          idPrefix={reply ? `canned-${reply.id}` : "canned-new"}
          errors={refusal?.fieldErrors}
          values={values}
          fields={fields}
        />
        <div className="flex flex-wrap justify-end gap-2">
          <DialogFormButtons
            cancel={t("cannedReplies.cancel")}
            submit={reply ? t("cannedReplies.save") : t("cannedReplies.create")}
            busy={busy}
          />
        </div>
      </Form>
    </DialogShell>
  );
}

/** A plain form per button, so reordering works without JavaScript too. */
export function MoveButton({
  reply,
  direction,
  disabled,
}: {
  reply: CannedReply;
  direction: "up" | "down";
  disabled: boolean;
}) {
  const { t } = useTranslation("admin-tickets");
  const busy = useBusy();
  const label =
    direction === "up"
      ? t("cannedReplies.moveUpFor", { title: reply.title })
      : t("cannedReplies.moveDownFor", { title: reply.title });
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={direction} />
      <input type="hidden" name="id" value={reply.id} />
      <Button
        type="submit"
        variant="outline"
        size="icon"
        className="size-9"
        disabled={disabled || busy}
        aria-label={label}
        title={label}
      >
        {direction === "up" ? <ArrowUpIcon aria-hidden /> : <ArrowDownIcon aria-hidden />}
      </Button>
    </Form>
  );
}

/** "Delete", after a confirmation. */
export function DeleteReplyDialog({ reply }: { reply: CannedReply }) {
  const { t } = useTranslation("admin-tickets");
  return (
    <ConfirmDialog
      fields={{ intent: "delete", id: String(reply.id) }}
      labels={{
        trigger: t("cannedReplies.delete"),
        triggerFor: t("cannedReplies.deleteFor", { title: reply.title }),
        title: t("cannedReplies.deleteTitle", { title: reply.title }),
        text: t("cannedReplies.deleteText"),
        confirm: t("cannedReplies.deleteConfirm"),
        cancel: t("cannedReplies.cancel"),
        close: t("cannedReplies.close"),
      }}
    />
  );
}
