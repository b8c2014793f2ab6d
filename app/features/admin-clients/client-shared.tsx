import { useTranslation } from "~/i18n/use-translation";
import { messageKey } from "~/lib/message-key";
import type { DirectoryUser } from "~/domain/accounts/user-admin";

export type ClientRow = DirectoryUser;

export interface ClientActionResult {
  ok: boolean;
  intent: "coins" | "update" | "delete";
  userId?: string;
  message: string;
  reason?: string;
  fieldErrors?: Record<string, string>;
}

export const selectClass =
  "flex h-10 w-full rounded-md border bg-background px-3 py-2 text-base md:text-sm";

/** The outcome of the last action: the spec's message, then why when it was refused. */
export function ResultText({ result }: { result: ClientActionResult }) {
  const { t } = useTranslation("admin");
  const tr = t as (key: string) => string;
  return (
    <>
      {tr(messageKey(result.message))}
      {result.reason ? <span className="block">{tr(messageKey(result.reason))}</span> : null}
    </>
  );
}
