import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Disclosure } from "~/components/ui/disclosure";
import { Field, fieldAria } from "~/components/ui/field";
import { FormFields } from "~/components/ui/form-card";
import { Input } from "~/components/ui/input";
import {
  MAX_PROOF_BYTES,
  MAX_PROOFS_PER_TOP_UP,
  PROOF_ACCEPT,
  type TopUpProof,
} from "~/domain/payments/top-up-proofs";
import { MAX_PAYER_ACCOUNT_LENGTH, type TopUpRequest } from "~/domain/payments/top-ups";
import { useMessage } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { cn } from "~/lib/utils";
import type { TopUpPageResult } from "./top-up-page";

/**
 * "I have paid" on the open request: the account that paid, the day and the proof files. Once said
 * paid, it folds away under a line that opens it again (to correct the details or add a file), so the
 * thanks and the request's state are what the page shows; a refusal keeps it open.
 */
export function PaidForm({
  request,
  proofs,
  result,
  today,
}: {
  request: TopUpRequest;
  /** The request's files. */
  proofs: TopUpProof[];
  result?: TopUpPageResult;
  /** The server's day (YYYY-MM-DD): when the money went, at the latest. */
  today: string;
}) {
  const { t } = useTranslation("payments");
  const message = useMessage();
  const busy = useNavigation().state !== "idle";
  const error = result && !result.ok && result.intent === "paid" ? result : undefined;
  // What the browser can tell of the picked files before they are sent (how many, how big): said at
  // once, and the post held back, rather than a 413 for a body of 20 MB. The server checks it all again.
  const [picked, setPicked] = useState<TopUpPageResult | undefined>();
  const shown = picked ?? error;
  const proofsError = picked?.fieldErrors?.proofs ?? error?.fieldErrors?.proofs;
  const roomForProofs = proofs.length < MAX_PROOFS_PER_TOP_UP;
  function checkPicked(files: FileList | null) {
    const list = [...(files ?? [])];
    const big = list.find((file) => file.size > MAX_PROOF_BYTES);
    const refusal: TopUpPageResult | undefined =
      proofs.length + list.length > MAX_PROOFS_PER_TOP_UP
        ? {
            ok: false,
            message: "payments.errors.proofTooMany",
            fieldErrors: { proofs: "payments.errors.proofTooMany" },
            params: { max: MAX_PROOFS_PER_TOP_UP },
          }
        : big
          ? {
              ok: false,
              message: "payments.errors.proofTooBig",
              fieldErrors: { proofs: "payments.errors.proofTooBig" },
              params: { name: big.name, max: MAX_PROOF_BYTES / 1024 / 1024 },
            }
          : undefined;
    setPicked(refusal);
  }
  const folded = request.state === "proof_sent";
  const form = (
    /* Drawn again once files are stored, so the ones just sent are no longer picked to send again. */
    <Form
      key={proofs.length}
      method="post"
      encType="multipart/form-data"
      className={cn("grid gap-4", folded ? null : "rounded-md border p-4")}
      noValidate
      onSubmit={(event) => {
        if (picked) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value="paid" />
      <input type="hidden" name="requestId" value={request.id} />
      <div className="grid gap-1">
        <h3 className="font-semibold">{t("topUps.paidTitle")}</h3>
        <p className="text-sm text-muted-foreground">{t("topUps.paidHelp")}</p>
      </div>
      <FormFields
        fields={[
          {
            kind: "row",
            className: "grid gap-4 sm:grid-cols-2",
            fields: [
              {
                kind: "input",
                name: "payerAccount",
                id: "top-up-payer",
                label: t("topUps.payerAccount"),
                required: true,
                maxLength: MAX_PAYER_ACCOUNT_LENGTH,
                dir: "ltr",
                autoComplete: "tel",
                defaultValue: request.payerAccount ?? "",
              },
              {
                kind: "input",
                name: "paidOn",
                id: "top-up-paid-on",
                label: t("topUps.paidOn"),
                type: "date",
                required: true,
                max: today,
                defaultValue: request.paidOn ?? today,
              },
            ],
          },
        ]}
        errors={error?.fieldErrors}
      />
      {roomForProofs ? (
        <Field
          id="top-up-proofs"
          label={t("topUps.proofs")}
          hint={t("topUps.proofsHint", {
            size: MAX_PROOF_BYTES / 1024 / 1024,
            max: MAX_PROOFS_PER_TOP_UP,
          })}
          error={proofsError ? message(proofsError, shown?.params) : undefined}
        >
          <Input
            id="top-up-proofs"
            name="proofs"
            type="file"
            multiple
            accept={PROOF_ACCEPT}
            aria-required={proofs.length === 0}
            onChange={(event) => checkPicked(event.currentTarget.files)}
            className="h-auto file:me-3 file:rounded-md file:border-0 file:bg-muted file:px-3 file:py-1 file:text-sm file:font-medium"
            {...fieldAria("top-up-proofs", proofsError, { hint: true })}
          />
        </Field>
      ) : null}
      <Button type="submit" disabled={busy} className="justify-self-start">
        {folded ? t("topUps.paidUpdate") : t("topUps.paidSubmit")}
      </Button>
    </Form>
  );
  return folded ? (
    <Disclosure
      summary={roomForProofs ? t("topUps.paidReopen") : t("topUps.paidUpdate")}
      open={shown ? true : undefined}
    >
      {form}
    </Disclosure>
  ) : (
    form
  );
}
