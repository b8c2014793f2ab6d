// The fake PayPal's buyer's page: what a browser test walks between our "Pay with PayPal" and our
// return page. English only, as the double's own text; the locale asked for is kept on the page.

interface PageOrder {
  id: string;
  currency: string;
  value: string;
  customId: string | null;
  locale: string | null;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!,
  );
}

function layout(lang: string, body: string): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>PayPal Checkout (test double)</title>
<style>
body { font-family: sans-serif; margin: 0; padding: 1.5rem; background: #f5f7fa; }
main { max-width: 28rem; margin: 0 auto; background: #fff; padding: 1.5rem; border-radius: .75rem; }
button { width: 100%; padding: .9rem; font-size: 1.1rem; background: #ffc439; border: 0; border-radius: 2rem; }
a { display: block; text-align: center; margin-top: 1rem; }
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

export function buyerPage({ order, cancelUrl }: { order: PageOrder; cancelUrl: string | null }) {
  const lang = (order.locale ?? "en-US").split("-")[0] ?? "en";
  return layout(
    lang,
    `<h1>Pay with PayPal</h1>
<p data-testid="paypal-amount">${escapeHtml(order.value)} ${escapeHtml(order.currency)}</p>
${order.customId ? `<p data-testid="paypal-reference">${escapeHtml(order.customId)}</p>` : ""}
<p data-testid="paypal-locale">${escapeHtml(order.locale ?? "")}</p>
<form method="post" action="/checkoutnow/approve">
<input type="hidden" name="token" value="${escapeHtml(order.id)}">
<button type="submit">Pay</button>
</form>
${cancelUrl ? `<a href="${escapeHtml(cancelUrl)}">Cancel and return to the merchant</a>` : ""}`,
  );
}

export function closedPage(message: string) {
  return layout("en", `<h1>PayPal</h1><p>${escapeHtml(message)}</p>`);
}
