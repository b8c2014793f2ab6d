import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { defaultSettings } from "~/domain/settings/settings";
import { createI18n } from "~/i18n/i18n";
import { loadResources } from "~/i18n/resources";
import { renderHtml } from "../../../tests/support/render-html";
import { CoinDialog, CoinPage, COINS_PAGE } from "./coin-dialog";

const user = { coinBalanceCents: 1250 };

function render(node: React.ReactNode, locale: "en" | "fr" | "ar" = "en") {
  return renderHtml(<MemoryRouter>{node}</MemoryRouter>, locale);
}

describe("CoinDialog as the server sends it (before any script runs)", () => {
  it("is a link to the coins page, named and announced as the dialog's button", async () => {
    const html = await render(<CoinDialog user={user} settings={defaultSettings()} locale="en" />);
    const link = /<a [^>]*>/.exec(html)?.[0] ?? "";
    expect(link).toContain(`href="${COINS_PAGE}"`);
    expect(link).toContain('role="button"');
    expect(link).toContain('aria-haspopup="dialog"');
    expect(link).toContain('aria-expanded="false"');
    expect(link).toContain('aria-label="Coin balance: 12.50 coins. Open the coin dialog"');
    // The same look as the button it was: the kit's outline button, small.
    expect(link).toContain("border bg-background hover:bg-muted");
    expect(link).toContain("h-9 px-3");
    // The dialog itself is not in the page until it is opened.
    expect(html).not.toContain('role="dialog"');
  });
});

describe("CoinPage", () => {
  it("says what the dialog says: the balance, the steps and the ways to reach the team", async () => {
    const settings = defaultSettings();
    settings.links.discord = "https://discord.example/invite";
    settings.features.livechat = true;
    settings.features.tickets = true;
    settings.features.coinPurchase = true;
    const html = await render(<CoinPage user={user} settings={settings} locale="en" />);
    expect(html).toContain("<h1");
    expect(html).toContain("Buy coins");
    expect(html).toContain("Your balance: 12.50 coins");
    expect(html).toContain("Join our community chat server.");
    expect(html).toContain("Open a support ticket.");
    expect(html).toContain('href="/support/new?topic=coins"');
    // Buying with a payment method comes first.
    expect(html).toContain('href="/dashboard/top-up"');
    expect(html.indexOf('href="/dashboard/top-up"')).toBeLessThan(html.indexOf("<ol"));
    expect(html).toContain('href="https://discord.example/invite"');
  });

  it("shows only the balance while coin purchase is closed", async () => {
    const settings = defaultSettings();
    settings.features.coinPurchase = false;
    const html = await render(<CoinPage user={user} settings={settings} locale="en" />);
    expect(html).toContain("Your coins");
    expect(html).toContain("Coin purchase is currently closed.");
    expect(html).not.toContain("<ol");
    expect(html).not.toContain('href="/dashboard/top-up"');
  });

  it.each(["fr", "ar"] as const)("speaks the page's language: %s", async (locale) => {
    const settings = defaultSettings();
    const i18n = await createI18n(locale, await loadResources(locale));
    const html = await render(<CoinPage user={user} settings={settings} locale={locale} />, locale);
    expect(html).toContain(
      i18n.t(settings.features.coinPurchase ? "coins.title" : "coins.closedTitle"),
    );
    expect(html).not.toContain("Buy coins");
  });
});
