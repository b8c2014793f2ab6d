import { optionalNote, z } from "~/lib/zod";
import { MAX_CLIENT_NOTE_LENGTH } from "./clients";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/**
 * The `:id` of /admin/clients/:id. Account ids are better-auth's (letters and digits) or an import's; an
 * id that cannot be one is a client that is not there, never an error.
 */
export const clientIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/);

/** The client page's one form: the admin's note (empty clears it). */
export const clientNoteSchema = z.object({
  intent: z.literal("note", { error: "admin-clients.errors.unknownAction" }),
  note: optionalNote(MAX_CLIENT_NOTE_LENGTH, "admin-clients.errors.noteTooLong"),
});
export type ClientNoteInput = z.infer<typeof clientNoteSchema>;

/**
 * Every form of the client page: the note, and turning off the client's two-factor sign-in,
 * which carries nothing but its intent (the client is the page's `:id`).
 */
export const clientPageActionSchema = z.discriminatedUnion(
  "intent",
  [clientNoteSchema, z.object({ intent: z.literal("reset-two-factor") })],
  { error: "admin-clients.errors.unknownAction" },
);
export type ClientPageActionInput = z.infer<typeof clientPageActionSchema>;
