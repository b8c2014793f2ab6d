import type { CannedReply } from "~/domain/tickets/canned-replies";
import type { ReactionTable } from "./reaction.server";
import { auditSaved, type Saved } from "./saved.server";

/** The staff's changes to the canned replies, on /admin/tickets/replies (docs/self-service.md). */
export type CannedReplyEvent =
  /** A member of the staff wrote a new reply (no `before`) or changed one's title, texts or department. */
  | ({ type: "cannedReply.saved" } & Saved<CannedReply>)
  /** Moved one place up or down the list. */
  | { type: "cannedReply.moved"; actorId: string; replyId: number; from: number; to: number }
  /** Deleted for good (`reply` as it was). */
  | { type: "cannedReply.deleted"; actorId: string; reply: CannedReply };

/** What the audit log keeps of a reply: its title, department and texts, not its place nor its times. */
function replyView(reply: CannedReply) {
  const { position: _p, authorName: _a, createdAt: _c, updatedAt: _u, ...kept } = reply;
  return kept;
}

const savedReply = auditSaved("canned_reply", replyView);

/** What follows a change to the canned replies: its audit entry, nothing else (no customer sees them). */
export const cannedReplyReactions: ReactionTable<CannedReplyEvent> = {
  "cannedReply.saved": {
    audit: (event) =>
      savedReply(event, event.before ? "canned_reply.update" : "canned_reply.create"),
  },
  "cannedReply.moved": {
    audit: ({ actorId, replyId, from, to }) => ({
      actorId,
      action: "canned_reply.move",
      targetType: "canned_reply",
      targetId: replyId,
      before: { position: from },
      after: { position: to },
    }),
  },
  "cannedReply.deleted": {
    audit: ({ actorId, reply }) => ({
      actorId,
      action: "canned_reply.delete",
      targetType: "canned_reply",
      targetId: reply.id,
      before: replyView(reply),
    }),
  },
};
