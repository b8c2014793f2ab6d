import { DATA_EXPORT_CARD_PATH } from "~/domain/data-exports/data-exports";
import type { ReactionTable } from "./reaction.server";

export type DataExportEvent =
  /** A customer asked for an archive of their data (the worker's job that makes it is queued). */
  | { type: "dataExport.requested"; userId: string; exportId: number }
  /**
   * The worker made it: its link carries `token` and works until `expiresAt` (ISO), for its owner
   * signed in. The token is told to the customer only (the notice names the account tab instead).
   */
  | {
      type: "dataExport.ready";
      userId: string;
      exportId: number;
      token: string;
      expiresAt: string;
      sizeBytes: number;
    };

/** What follows a customer's archive (docs/self-service.md#a-customers-data). */
export const dataExportReactions: ReactionTable<DataExportEvent> = {
  // Who took a copy of an account's data, and when: the audit log keeps it as it keeps a deletion's ask.
  "dataExport.requested": {
    audit: ({ userId, exportId }) => ({
      actorId: userId,
      action: "account.data_export",
      targetType: "user",
      targetId: userId,
      after: { exportId },
    }),
  },
  "dataExport.ready": {
    notice: ({ userId, exportId, expiresAt }) => ({
      userId,
      kind: "data_export_ready",
      params: { expires: expiresAt },
      link: DATA_EXPORT_CARD_PATH,
      dedupeKey: `data-export:${exportId}`,
    }),
    mail: ({ userId, exportId, token, expiresAt }) => ({
      kind: "dataExportReady",
      userId,
      exportId,
      token,
      expiresAt,
    }),
  },
};
