import type { MessageKey } from "~/i18n/use-message";

/** What a campaign form's post answers: what was done, or why not, with what was typed. */
export type CampaignActionResult =
  | { ok: true; intent: string; message: MessageKey; count?: number }
  | {
      ok: false;
      intent?: string;
      message: MessageKey;
      fieldErrors?: Record<string, MessageKey | undefined>;
      values?: Record<string, unknown>;
    };

/** A language's preview: the message as its reader will get it. */
export interface CampaignPreview {
  locale: string;
  subject: string;
  html: string;
}
