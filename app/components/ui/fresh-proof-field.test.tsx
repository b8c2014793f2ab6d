import { describe, expect, it } from "vitest";
import { renderHtml } from "../../../tests/support/render-html";
import { FreshProofField, proofAnswerOf } from "./fresh-proof-field";

describe("FreshProofField", () => {
  it("renders nothing while the proof is fresh and no answer asked for one", async () => {
    expect(await renderHtml(<FreshProofField id="p" needed={false} />)).toBe("");
    expect(
      await renderHtml(
        <FreshProofField
          id="p"
          needed={false}
          result={{ fieldErrors: { name: "common.errors.invalid" } }}
        />,
      ),
    ).toBe("");
  });

  it("asks for the password or a code, as the browser fills in the current password", async () => {
    const html = await renderHtml(<FreshProofField id="method-proof" needed />);
    expect(html).toContain("Confirm it&#x27;s you: your password or a two-factor code");
    expect(html).toContain('name="proof"');
    expect(html).toContain('autoComplete="current-password"');
    expect(html).toMatch(/<input[^>]*type="password"[^>]*id="method-proof"/);
    expect(html).toContain('aria-describedby="method-proof-hint"');
    expect(html).toContain('aria-label="Show what you typed"');
    expect(html).not.toContain('role="alert"');
  });

  it("shows the answer's message on the field, with its minutes, in the reader's language", async () => {
    const wrong = await renderHtml(
      <FreshProofField
        id="p"
        needed={false}
        result={{ proof: "required", fieldErrors: { proof: "admin-staff.freshProof.wrong" } }}
      />,
    );
    expect(wrong).toContain('role="alert"');
    expect(wrong).toContain("That password or code is not right.");
    expect(wrong).toContain('aria-invalid="true"');
    const limited = await renderHtml(
      <FreshProofField
        id="p"
        needed
        result={{
          proof: "required",
          fieldErrors: { proof: "admin-staff.freshProof.limited" },
          fieldErrorValues: { proof: { count: 14 } },
        }}
      />,
      "fr",
    );
    expect(limited).toContain("Trop d’essais incorrects : réessayez dans 14 minutes.");
    const arabic = await renderHtml(<FreshProofField id="p" needed />, "ar");
    expect(arabic).toContain("أكّد أنك أنت");
  });

  it("reads an answer as one that asked for a proof only when it says so", () => {
    expect(proofAnswerOf(undefined)).toBeUndefined();
    expect(proofAnswerOf({ ok: false, message: "x" })).toBeUndefined();
    const asked = { ok: false, proof: "required", values: { amount: "150" } };
    expect(proofAnswerOf(asked)).toBe(asked);
  });
});
