import { newsletterErrorOutcome, type NewsletterOutcome } from "~/domain/site/site";

/**
 * The footer's newsletter box on a page served without React: sent with fetch, as the hydrated page's
 * fetcher does, so the page stays, a refused address stays in the field and the outcome shows in the
 * status line (texts in the form's data-outcomes). An answer that is not the action's (a refusal by the
 * rate limit, maintenance) sends the form as a plain post instead, which shows the server's page.
 */
export function enhanceSiteFooter(root: ParentNode) {
  const form = root.querySelector<HTMLFormElement>("form#newsletter");
  const status = form?.querySelector<HTMLElement>("[role=status]");
  const input = form?.querySelector<HTMLInputElement>("input[name=email]");
  const button = form?.querySelector<HTMLButtonElement>("[type=submit]");
  if (!form || !status || !input || !button) return;
  const texts = JSON.parse(form.dataset.outcomes ?? "{}") as Partial<
    Record<NewsletterOutcome, string>
  >;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    let result: { ok: boolean; error?: string };
    try {
      const response = await fetch(form.action, { method: "POST", body: new FormData(form) });
      result = (await response.json()) as typeof result;
      if (typeof result?.ok !== "boolean") throw new Error("not the newsletter's answer");
    } catch {
      form.submit();
      return;
    } finally {
      button.disabled = false;
    }
    const outcome = result.ok ? "thanks" : newsletterErrorOutcome(result.error);
    status.textContent = texts[outcome] ?? "";
    status.className = result.ok ? "mt-2 text-sm text-green-300" : "mt-2 text-sm text-red-300";
    if (result.ok) {
      form.reset();
      input.removeAttribute("aria-invalid");
    } else {
      input.setAttribute("aria-invalid", "true");
    }
  });
}
