import { ShieldCheckIcon } from "lucide-react";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { Field, fieldAria } from "./field";
import { PasswordInput } from "./password-input";

/**
 * What a sensitive form's answer says about the proof of identity (app/http/fresh-proof.server.ts):
 * `proof: "required"` when it refused for want of one, the field's message in `fieldErrors.proof` and
 * its values (the minutes to wait) in `fieldErrorValues.proof`.
 */
export interface ProofAnswer {
  proof?: "required";
  fieldErrors?: Record<string, MessageKey>;
  fieldErrorValues?: Record<string, Record<string, string | number>>;
}

/** Whether a form's answer asked for a proof of identity. */
export function askedForProof(result: ProofAnswer | undefined): boolean {
  return result?.proof === "required";
}

/**
 * A form's answer as one that asked for a proof, with what was typed (`values`), or undefined. For an
 * action whose answers' union lost that shape to a wider refusal of its own (TypeScript keeps the
 * wider of two object types where one has every property of the other).
 */
export function proofAnswerOf(
  result: object | undefined,
): (ProofAnswer & { values?: Record<string, string> }) | undefined {
  return result && "proof" in result && result.proof === "required"
    ? (result as ProofAnswer & { values?: Record<string, string> })
    : undefined;
}

/**
 * The field a sensitive form holds when it needs a fresh proof of identity: the loader said the
 * session's is stale (`needed`), or the answer to the last post asked for it. Posted as `proof`: the
 * account's password or a code of its two-factor sign-in (the app's, or a backup code). Nothing is
 * rendered when neither holds. A framed group of its own, so it reads as a step apart from the form's
 * fields; its control fills the width, which fits a 360-pixel phone.
 */
export function FreshProofField({
  id,
  needed,
  result,
}: {
  /** The control's id (one per form on the page). */
  id: string;
  needed: boolean;
  result?: ProofAnswer;
}) {
  const { t } = useTranslation("admin-staff");
  const message = useMessage();
  if (!needed && !askedForProof(result)) return null;
  const error = askedForProof(result)
    ? message(result?.fieldErrors?.proof, result?.fieldErrorValues?.proof)
    : undefined;
  return (
    <div className="grid gap-2 rounded-md border border-dashed p-3" data-testid="fresh-proof">
      <p className="flex items-start gap-2 text-sm text-muted-foreground">
        <ShieldCheckIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>{t("freshProof.why")}</span>
      </p>
      <Field id={id} label={t("freshProof.label")} hint={t("freshProof.hint")} error={error}>
        <PasswordInput
          id={id}
          name="proof"
          autoComplete="current-password"
          spellCheck={false}
          showLabel={t("freshProof.show")}
          hideLabel={t("freshProof.hide")}
          {...fieldAria(id, error, { hint: true })}
        />
      </Field>
    </div>
  );
}
