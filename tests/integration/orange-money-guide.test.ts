import { expect, it } from "vitest";
import { appFetch } from "../support/app-harness";
import { describeEachDatabase } from "../support/test-database";

// The Orange Money guide (/orange-money) tells the real way to pay (docs/payments.md): a
// top-up request from "Add coins", its reference in the transfer, its proof, an admin's approval. No
// "invoice to generate", no email to send.
describeEachDatabase("the Orange Money guide", (app) => {
  const page = async (lang: string) => {
    const response = await appFetch(app())(`/orange-money?lang=${lang}`);
    expect(response.status).toBe(200);
    return response.text();
  };
  /** The HTML's text, tags dropped, so a sentence cut by a link still reads whole. */
  const textOf = (html: string) =>
    html
      .replace(/<[^>]+>/g, "")
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/\s+/g, " ");

  it("starts at Add coins, in English, French and Arabic", async () => {
    const cases = {
      en: ["Add coins", "attach the proof of payment", "Wait for approval"],
      fr: ["Ajouter des coins", "joignez la preuve de paiement", "Attendez la validation"],
      ar: ["إضافة كوينز", "أرفق إثبات الدفع", "انتظر الموافقة"],
    };
    for (const [lang, texts] of Object.entries(cases)) {
      const html = await page(lang);
      // The first step links to it; no other step does.
      const steps = /<main[\s\S]*?<ol[^>]*>([\s\S]*?)<\/ol>/.exec(html)![1]!.split("<li").slice(1);
      expect(steps, lang).toHaveLength(6);
      const link = /<a[^>]*href="\/dashboard\/top-up"[^>]*>([^<]+)<\/a>/.exec(steps[0]!);
      expect(link?.[1], lang).toBe(texts[0]);
      expect(steps.slice(1).join("")).not.toContain("/dashboard/top-up");
      const text = textOf(html);
      for (const expected of texts) expect(text, lang).toContain(expected);
      // The old guide's steps are gone.
      expect(text, lang).not.toMatch(
        /payments@|Generate an invoice|Générez une facture|أنشئ فاتورة/,
      );
    }
  });
});
