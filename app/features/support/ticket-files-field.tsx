import { useEffect, useRef, useState } from "react";
import { Field, fieldAria } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import {
  MAX_TICKET_FILE_BYTES,
  MAX_TICKET_FILES_PER_MESSAGE,
  MAX_TICKET_POST_FILE_BYTES,
  pickedFilesProblem,
  TICKET_FILE_ACCEPT,
  type TicketFileProblem,
} from "~/domain/tickets/ticket-files";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";

/** The form field files are sent in (the actions read this one: parseFormWithFiles). */
export const TICKET_FILES_FIELD = "files";

/**
 * The files of a ticket's message, the customer's or the staff's (several at once). What the browser can
 * tell of the picked files (how many, how big) is said as soon as they are picked, and the form is held
 * back rather than sent for a refusal (or a 413 for a body past the uploads' limit); the server checks it
 * all again, and reads each file by its content. A refusal from the server (`error`) names the file and
 * why; what was typed beside it stays in its field.
 */
export function TicketFilesField({
  id,
  error,
}: {
  id: string;
  /** The server's refusal of the files sent, with the values its message takes. */
  error?: { message: MessageKey; params?: Record<string, string | number> };
}) {
  const { t } = useTranslation("tickets");
  const message = useMessage();
  const input = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<TicketFileProblem | null>(null);
  // The post is held back while the picked files are refused: stopped before React Router's own submit
  // handler (at the document's root) sees it.
  useEffect(() => {
    const field = input.current;
    const form = field?.form;
    if (!form || !picked) return;
    const hold = (event: SubmitEvent) => {
      event.preventDefault();
      event.stopPropagation();
      field.focus();
    };
    form.addEventListener("submit", hold);
    return () => form.removeEventListener("submit", hold);
  }, [picked]);
  const shown = picked
    ? message(picked.error, picked.params)
    : error
      ? message(error.message, error.params)
      : undefined;
  return (
    <Field
      id={id}
      label={t("files.label")}
      hint={t("files.hint", {
        size: MAX_TICKET_FILE_BYTES / 1024 / 1024,
        max: MAX_TICKET_FILES_PER_MESSAGE,
        total: MAX_TICKET_POST_FILE_BYTES / 1024 / 1024,
      })}
      error={shown}
    >
      <Input
        ref={input}
        id={id}
        name={TICKET_FILES_FIELD}
        type="file"
        multiple
        accept={TICKET_FILE_ACCEPT}
        onChange={(event) =>
          setPicked(
            pickedFilesProblem(
              [...(event.currentTarget.files ?? [])].map((file) => ({
                name: file.name,
                size: file.size,
              })),
            ),
          )
        }
        className="h-auto file:me-3 file:rounded-md file:border-0 file:bg-muted file:px-3 file:py-1 file:text-sm file:font-medium"
        {...fieldAria(id, shown, { hint: true })}
      />
    </Field>
  );
}
