import type { Generated } from "kysely";
import type { Timestamp } from "./columns";

/** A mail campaign (migration 0061, docs/mail.md#campaigns), written per language. */
export interface MailCampaignsTable {
  id: Generated<number>;
  /** JSON: {"en": {"subject": "...", "body": "..."}, "fr": ..., "ar": ...}. */
  texts: Generated<string>;
  /** JSON: {"newsletter": boolean, "productTypes": string[], "locales": string[]}. */
  audience: Generated<string>;
  /** draft | sent (a CHECK). */
  state: Generated<string>;
  /** How many it was queued to when sent. */
  recipients: Generated<number>;
  created_by: string | null;
  sent_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When the staff last sent it to themselves. */
  tested_at: Timestamp | null;
  sent_at: Timestamp | null;
}

/** An address that asked for no more campaigns, and the campaign whose link it followed. */
export interface CampaignUnsubscribesTable {
  id: Generated<number>;
  email: string;
  campaign_id: number | null;
  created_at: Timestamp;
}

/** The campaigns' tables, joined to the Database interface (app/db/schema.ts). */
export interface CampaignTables {
  mail_campaigns: MailCampaignsTable;
  campaign_unsubscribes: CampaignUnsubscribesTable;
}
