import { formatFileSize } from "~/domain/files/files";
import { isImageFile, ticketFilePath, type TicketFile } from "~/domain/tickets/ticket-files";
import { useTranslation } from "~/i18n/use-translation";

/**
 * The files of a message: an image as a small picture that opens it in a tab; a PDF or a log as a
 * download (served as one, never as a page of the site); a file past its retention by its name, said
 * removed. Every file is served by its ticket's address, to its customer and the staff only.
 */
export function TicketFileList({
  ticketId,
  files,
  locale,
}: {
  ticketId: number;
  files: TicketFile[];
  locale: string;
}) {
  const { t } = useTranslation("tickets");
  if (files.length === 0) return null;
  return (
    <ul className="mt-3 grid gap-2 text-sm" aria-label={t("files.attached")}>
      {files.map((file) => {
        const href = ticketFilePath(ticketId, file.id);
        if (file.removed)
          return (
            <li key={file.id} className="text-muted-foreground" dir="auto">
              {t("files.removed", { name: file.fileName })}
            </li>
          );
        return (
          <li key={file.id} className="grid justify-items-start gap-1">
            {isImageFile(file) ? (
              <a href={href} target="_blank" rel="noreferrer" className="block">
                <img
                  src={href}
                  alt={file.fileName}
                  width={file.width ?? undefined}
                  height={file.height ?? undefined}
                  loading="lazy"
                  className="h-auto max-h-40 w-auto max-w-full rounded border bg-white object-contain"
                />
              </a>
            ) : null}
            <span className="flex flex-wrap items-baseline gap-x-2">
              <a
                href={href}
                {...(isImageFile(file)
                  ? { target: "_blank", rel: "noreferrer" }
                  : { download: file.fileName })}
                className="break-all text-primary underline-offset-4 hover:underline"
                dir="auto"
              >
                {file.fileName}
              </a>
              <span className="text-muted-foreground">{formatFileSize(file.byteSize, locale)}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
