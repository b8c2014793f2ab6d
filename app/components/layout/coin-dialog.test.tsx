import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { defaultSettings } from "~/domain/settings/settings";
import { createI18n } from "~/i18n/i18n";
import { loadResources } from "~/i18n/resources";
import { renderHtml } from "../../../tests/support/render-html";
import { CoinDialog, CoinPage } from "./coin-dialog";

const user = { coinBalanceCents: 1250 };

function render(node: React.ReactNode, locale: "en" | "fr" | "ar" = "en") {
  return renderHtml(<MemoryRouter>{node}</MemoryRouter>, locale);
}

describe("CoinDialog as the server sends it (before any script runs)", () => {
  it("is a button that opens the dialog written into the page, named and announced as before", async () => {
    const html = await render(<CoinDialog user={user} settings={defaultSettings()} locale="en" />);
    const button = /<button [^>]*>/.exec(html)?.[0] ?? "";
    const dialog = /<dialog [^>]*>/.exec(html)?.[0] ?? "";
    const id = /\bid="([^"]+)"/.exec(dialog)?.[1];
    expect(id).toBeTruthy();
    // The browser opens it modal (commands), or as a popover where it knows no commands; a button, not
    // a submit button inside the order form that holds one.
    expect(button).toContain('type="button"');
    expect(button).toContain(`commandfor="${id}"`);
    expect(button).toContain('command="show-modal"');
    // (React writes the attribute's name as the prop's, popoverTarget; HTML's names know no case.)
    expect(button).toMatch(new RegExp(`\\bpopovertarget="${id}"`, "i"));
    expect(button).toContain('aria-haspopup="dialog"');
    // Whether it is open is the browser's to say until React runs.
    expect(button).not.toContain("aria-expanded");
    expect(button).toContain('aria-label="Coin balance: 12.50 coins. Open the coin dialog"');
    // The same look as before: the kit's outline button, small.
    expect(button).toContain("border bg-background hover:bg-muted");
    expect(button).toContain("h-9 px-3");
    // The dialog, closed, with what it says; its close button closes it without a script too.
    expect(dialog).not.toMatch(/\sopen[\s=>]/);
    expect(dialog).toContain('popover="auto"');
    expect(dialog).toContain('closedby="any"');
    expect(html).toContain("Buy coins");
    expect(html).toContain("Your balance: 12.50 coins");
    expect(html).toMatch(
      new RegExp(`<button [^>]*commandfor="${id}" command="close"[^>]*aria-label="Close"`),
    );
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
