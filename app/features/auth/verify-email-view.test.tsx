import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { SUPPORTED_LOCALES } from "~/i18n/locales";
import { renderHtml } from "../../../tests/support/render-html";
import { AddressNotice } from "../dashboard/address-notice";
import { VerifyEmailView } from "./verify-email-view";

/** A piece of UI inside a data router (its buttons read the navigation state), as the server sends it. */
function render(node: React.ReactNode, locale: "en" | "fr" | "ar" = "en") {
  const Stub = createRoutesStub([{ path: "/", Component: () => node }]);
  return renderHtml(<Stub initialEntries={["/"]} />, locale);
}

describe("the verification page", () => {
  it.each(SUPPORTED_LOCALES)("says what a link did, in %s, without a key left", async (locale) => {
    for (const outcome of [
      "verified",
      "alreadyVerified",
      "changed",
      "expired",
      "invalid",
      "emailTaken",
    ] as const) {
      const html = await render(
        <VerifyEmailView outcome={outcome} email="a@example.com" signedIn status={null} />,
        locale,
      );
      expect(html, outcome).toContain("<h1");
      expect(html, outcome).not.toMatch(/verify\.[a-z]/);
    }
  });

  it("offers a new link after an expired one when signed in, and a sign-in otherwise", async () => {
    const signedIn = await render(
      <VerifyEmailView outcome="expired" email={null} signedIn status={null} />,
    );
    expect(signedIn).toContain("This link has expired");
    expect(signedIn).toContain('action="/verify-email"');
    expect(signedIn).toContain("Send the message again");
    const visitor = await render(
      <VerifyEmailView outcome="expired" email={null} signedIn={false} status={null} />,
    );
    expect(visitor).toContain('href="/login?redirectTo=%2Fverify-email"');
    expect(visitor).not.toContain("Send the message again");
  });

  it("shows a signed-in account's address and what the resend answered", async () => {
    const html = await render(
      <VerifyEmailView
        outcome={null}
        email={null}
        signedIn
        status={{ verified: false, email: "me@example.com", mailConfigured: true }}
        result={{ ok: false, message: "auth.verify.tooMany", count: 12 }}
      />,
    );
    expect(html).toContain("me@example.com");
    expect(html).toContain("Try again in 12 seconds.");
    expect(html).toContain("Send the message again");
  });
});

describe("the dashboard's address notice", () => {
  const address = {
    email: "me@example.com",
    verified: false,
    mailConfigured: true,
    required: true,
  };

  it("asks an unverified account to confirm, says what waits, and sends the link again", async () => {
    const html = await render(<AddressNotice address={address} />);
    expect(html).toContain("Confirm your email address");
    expect(html).toContain("me@example.com");
    expect(html).toContain("you cannot order, open a ticket or ask for coins");
    expect(html).toContain('action="/verify-email"');
    const ar = await render(<AddressNotice address={address} />, "ar");
    expect(ar).toContain("أكّد عنوان بريدك الإلكتروني");
  });

  // An account made while no SMTP was set was never sent a link: the notice must be true for it too.
  it("never says a message was sent, in any language, and offers a new link", async () => {
    const en = await render(<AddressNotice address={address} />);
    expect(en).toContain("Follow the link in the message we send to");
    expect(en).toContain("Send me a new link");
    const fr = await render(<AddressNotice address={address} />, "fr");
    expect(fr).toContain("Suivez le lien du message que nous envoyons à");
    expect(fr).toContain("M&#x27;envoyer un nouveau lien");
    const ar = await render(<AddressNotice address={address} />, "ar");
    expect(ar).toContain("افتح الرابط الموجود في الرسالة التي نرسلها إلى");
    expect(ar).toContain("أرسل لي رابطًا جديدًا");
    expect(en).not.toMatch(/We sent/);
    expect(fr).not.toMatch(/avons envoyé/);
    expect(ar).not.toContain("أرسلنا");
  });

  it("says nothing once verified, or while no mail can reach anyone", async () => {
    expect(await render(<AddressNotice address={{ ...address, verified: true }} />)).not.toContain(
      "Confirm",
    );
    expect(
      await render(<AddressNotice address={{ ...address, mailConfigured: false }} />),
    ).not.toContain("Confirm");
  });
});
