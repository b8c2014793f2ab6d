import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { defaultSettings } from "~/domain/settings/settings";
import { createI18n } from "~/i18n/i18n";
import { loadResources } from "~/i18n/resources";
import { renderHtml } from "../../../tests/support/render-html";
import { addCoinsPath, AddCoinsButton, CoinDialog, CoinPage } from "./coin-dialog";

/** A customer with 12.50 coins, where no payment method is open: coins are bought off-site. */
const user = { coinBalanceCents: 1250, topUpOpen: false };
/** The same customer where a payment method is open: coins are bought here. */
const topUpUser = { ...user, topUpOpen: true };

/** Settings where every way to reach the team is open (the community chat, tickets). */
function allWaysOpen() {
  const settings = defaultSettings();
  settings.links.discord = "https://discord.example/invite";
  settings.features.livechat = true;
  settings.features.tickets = true;
  settings.features.coinPurchase = true;
  return settings;
}

/** The off-site steps and their buttons, any of which the page may hold. */
const OFF_SITE = [
  "<ol",
  "Join our community chat server.",
  "Open a support ticket.",
  "Ask the team to complete your purchase",
  'href="/support/new?topic=coins"',
  'href="https://discord.example/invite"',
  "bought off-site",
];

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

describe("the coin dialog's content", () => {
  /** What the dialog says once opened: the <dialog> element's markup. */
  async function dialogOf(customer: typeof user) {
    const html = await render(<CoinDialog user={customer} settings={allWaysOpen()} locale="en" />);
    return /<dialog [\s\S]*<\/dialog>/.exec(html)?.[0] ?? "";
  }

  it("without an open payment method: the off-site steps, and no Add coins", async () => {
    const dialog = await dialogOf(user);
    expect(dialog).toContain("Your balance: 12.50 coins");
    for (const text of OFF_SITE) expect(dialog).toContain(text);
    expect(dialog).not.toContain("Add coins");
    expect(dialog).not.toContain('href="/dashboard/top-up');
  });

  it("with a payment method open: Add coins to the top-up form, and nothing off-site", async () => {
    const dialog = await dialogOf(topUpUser);
    expect(dialog).toContain("Your balance: 12.50 coins");
    expect(dialog).toMatch(/<a [^>]*href="\/dashboard\/top-up"[^>]*>Add coins<\/a>/);
    for (const text of OFF_SITE) expect(dialog).not.toContain(text);
  });
});

describe("Add coins for a shortfall", () => {
  it("leads to the top-up form with what is missing while a method is open, else to the coins page", () => {
    expect(addCoinsPath("top-up", 350)).toBe("/dashboard/top-up?coins=3.50");
    expect(addCoinsPath("top-up", 1205)).toBe("/dashboard/top-up?coins=12.05");
    expect(addCoinsPath("top-up", 7)).toBe("/dashboard/top-up?coins=0.07");
    expect(addCoinsPath("top-up", 0)).toBe("/dashboard/top-up");
    expect(addCoinsPath("top-up")).toBe("/dashboard/top-up");
    expect(addCoinsPath("off-site", 350)).toBe("/coins");
  });

  it("is a visible button with its words, and nothing while coin purchase is closed", async () => {
    const link = await render(<AddCoinsButton way="top-up" missingCents={350} />);
    expect(link).toMatch(/^<a [^>]*href="\/dashboard\/top-up\?coins=3\.50"[^>]*>Add coins<\/a>$/);
    expect(link).not.toContain("sr-only");
    expect(await render(<AddCoinsButton way="off-site" missingCents={350} />)).toContain(
      'href="/coins"',
    );
    expect(await render(<AddCoinsButton way="closed" missingCents={350} />)).toBe("");
  });
});

describe("CoinPage", () => {
  it("without an open payment method: the balance, the off-site steps and the ways to reach the team", async () => {
    const html = await render(<CoinPage user={user} settings={allWaysOpen()} locale="en" />);
    expect(html).toContain("<h1");
    expect(html).toContain("Buy coins");
    expect(html).toContain("Your balance: 12.50 coins");
    for (const text of OFF_SITE) expect(html).toContain(text);
    // Nothing leads to a form no method can pay through.
    expect(html).not.toContain('href="/dashboard/top-up');
    expect(html).not.toContain("Add coins");
  });

  it("with a payment method open: Add coins to the top-up form, and no off-site steps", async () => {
    const html = await render(<CoinPage user={topUpUser} settings={allWaysOpen()} locale="en" />);
    expect(html).toContain("Buy coins");
    expect(html).toContain("Your balance: 12.50 coins");
    expect(html).toMatch(/<a [^>]*href="\/dashboard\/top-up"[^>]*>Add coins<\/a>/);
    expect(html).toContain("Buy them here: choose an amount and a way to pay");
    for (const text of OFF_SITE) expect(html).not.toContain(text);
  });

  it.each([user, topUpUser])(
    "shows only the balance while coin purchase is closed (a method open: $topUpOpen)",
    async (customer) => {
      const settings = allWaysOpen();
      settings.features.coinPurchase = false;
      const html = await render(<CoinPage user={customer} settings={settings} locale="en" />);
      expect(html).toContain("Your coins");
      expect(html).toContain("Coin purchase is currently closed.");
      expect(html).not.toContain("<ol");
      expect(html).not.toContain('href="/dashboard/top-up"');
      expect(html).not.toContain("Add coins");
    },
  );

  it.each(["fr", "ar"] as const)("speaks the page's language: %s", async (locale) => {
    const settings = defaultSettings();
    const i18n = await createI18n(locale, await loadResources(locale));
    const html = await render(<CoinPage user={user} settings={settings} locale={locale} />, locale);
    expect(html).toContain(
      i18n.t(settings.features.coinPurchase ? "coins.title" : "coins.closedTitle"),
    );
    expect(html).not.toContain("Buy coins");
  });

  it.each(["fr", "ar"] as const)(
    "says Add coins and the top-up way in the page's language: %s",
    async (locale) => {
      const i18n = await createI18n(locale, await loadResources(locale));
      const html = await render(
        <CoinPage user={topUpUser} settings={allWaysOpen()} locale={locale} />,
        locale,
      );
      expect(html).toContain(`>${i18n.t("coins.addCoins")}</a>`);
      expect(html).toContain(i18n.t("coins.descriptionTopUp", { rate: "" }).split(":")[0]!);
      expect(html).not.toContain(i18n.t("coins.stepTicket"));
    },
  );
});
