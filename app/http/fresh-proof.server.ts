import { data } from "react-router";
import type { RequestContext } from "~/context.server";
import { proveIdentity } from "~/domain/staff/fresh-proof.server";
import { isProofFresh } from "~/domain/staff/permissions";
import type { MessageKey } from "~/i18n/use-message";
import { secretField } from "./form.server";

/**
 * A fresh proof of identity before the most sensitive staff changes (docs/staff.md, ADR 57): payment
 * instructions and providers' keys, the game panel's keys, large coin changes, staff roles. The page's
 * loader says whether the session's proof is fresh (`proofIsFresh`), so the form shows the field for
 * it (app/components/ui/fresh-proof-field.tsx); the action calls `requireFreshProof` after the
 * permission guard and before it changes anything.
 */

/** The post's field the password or code is typed in. */
export const PROOF_FIELD = "proof";

/**
 * What a refusal for want of a proof carries, for the action to put into its form's own answer: the
 * form's message (overridable: a list editor says its "not saved"), and the proof field's own message
 * (asked for, not right, too many tries with their minutes) as the field's error.
 */
export interface ProofRefusal {
  proof: "required";
  message: MessageKey;
  fieldErrors: { proof: MessageKey };
  fieldErrorValues?: { proof: { count: number } };
}

/** Whether the session's last proof is still fresh by the server's clock (for the page's loader). */
export function proofIsFresh(context: RequestContext): boolean {
  return isProofFresh(context.session?.provenAt, context.services.clock());
}

/** A sensitive post as typed: the proof, and the rest without any secret (what a refusal shows again). */
export interface ProofPost {
  proof: string | null;
  values: Record<string, string>;
}

/**
 * A post's fields as typed, read from a copy of its body (the action reads the body itself): call it
 * before anything reads the request's body. A body that is no form reads as an empty one.
 */
export async function readProofPost(request: Request): Promise<ProofPost> {
  const form = await request
    .clone()
    .formData()
    .catch(() => new FormData());
  const proof = form.get(PROOF_FIELD);
  const values: Record<string, string> = {};
  for (const [name, value] of form.entries())
    if (typeof value === "string" && !secretField(name)) values[name] = value;
  return { proof: typeof proof === "string" && proof !== "" ? proof : null, values };
}

/** Each request's post as typed, kept by `withProofPost` for `requireFreshProof` to read. */
const typedPosts = new WeakMap<RequestContext, Promise<ProofPost>>();

/**
 * An admin action whose posts may carry a proof (`export const action = withProofPost(requestContext,
 * postAction)`): the post is read as typed before the action reads the body, and kept with the
 * request's context for `requireFreshProof` and `typedPost`.
 */
export function withProofPost<Args extends { request: Request; context: unknown }, Answer>(
  read: (context: Args["context"]) => RequestContext,
  action: (args: Args) => Promise<Answer>,
): (args: Args) => Promise<Answer> {
  return (args) => {
    typedPosts.set(read(args.context), readProofPost(args.request));
    return action(args);
  };
}

/** The post as typed that `withProofPost` kept for this request (an empty one without it). */
export function typedPost(context: RequestContext): Promise<ProofPost> {
  return typedPosts.get(context) ?? Promise.resolve({ proof: null, values: {} });
}

const refusalOf = (field: MessageKey, minutes?: number): ProofRefusal => ({
  proof: "required",
  message: "admin-staff.freshProof.notDone",
  fieldErrors: { proof: field },
  ...(minutes === undefined ? {} : { fieldErrorValues: { proof: { count: minutes } } }),
});

/**
 * The check a sensitive action makes once the guard let the member through: null when the change may
 * go ahead (the session's proof is fresh, or the proof the post carried proves it now and the session
 * is stamped), else the answer to return at once, nothing having changed: 403 (or 429 after too many
 * wrong tries) with `refused(refusal, typed)`, the form's own answer carrying the ProofRefusal and what
 * was typed (`typed.values`, no secret in them), so the page shows its form again with the field for
 * the proof and its message. The post is the one `withProofPost` kept, unless `post` gives it.
 */
export async function requireFreshProof<Answer extends object>({
  context,
  post,
  refused,
}: {
  context: RequestContext;
  post?: ProofPost;
  refused: (refusal: ProofRefusal, typed: ProofPost) => Answer;
}) {
  const session = context.session;
  const now = context.services.clock();
  if (session && isProofFresh(session.provenAt, now)) return null;
  const typed = post ?? (await typedPost(context));
  const { proof } = typed;
  if (!session || proof === null)
    return data(refused(refusalOf("admin-staff.freshProof.required"), typed), { status: 403 });
  const result = await proveIdentity(
    context.services,
    {
      sessionId: session.sessionId,
      userId: session.user.id,
      proof,
      ip: context.clientIp,
      now,
    },
    { ipPerMinute: context.services.loginIpLimit },
  );
  if (result.ok) {
    // What the rest of this request reads of the session: proven now.
    context.session = { ...session, provenAt: now.toISOString() };
    return null;
  }
  if (result.kind === "limited")
    return data(refused(refusalOf(result.error, result.minutes), typed), { status: 429 });
  return data(refused(refusalOf(result.error), typed), { status: 403 });
}
