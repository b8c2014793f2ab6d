import { pageParam } from "~/lib/query-params";
import { z } from "~/lib/zod";
import { MAIL_STATES } from "./mail";

// Schemas only: loaders, *.server.ts and tests import this file, never a page's code.

const rowId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** /admin/mail's query string: anything unexpected falls back to the default. */
export const mailListQuerySchema = z.object({
  state: z.enum(MAIL_STATES).optional().catch(undefined),
  /** The message shown in full. */
  open: rowId.optional().catch(undefined),
  page: pageParam,
});
export type MailListQuery = z.infer<typeof mailListQuerySchema>;
