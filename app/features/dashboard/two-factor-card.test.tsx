import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { Locale } from "~/i18n/locales";
import { renderHtml } from "../../../tests/support/render-html";
import { AccountTab } from "./account-tab";
import { TwoFactorCard, type TwoFactorResult } from "./two-factor-card";

const CODES = ["ABCDE-23456", "FGHJK-789AB", "MNPQR-STUVW"];

function renderAt(node: React.ReactNode, locale: Locale = "en") {
  const Stub = createRoutesStub([{ path: "/dashboard/account", Component: () => node }]);
  return renderHtml(<Stub initialEntries={["/dashboard/account"]} />, locale);
}

describe("the two-factor card's backup codes", () => {
  const shown: TwoFactorResult = {
    ok: true,
    form: "two-factor",
    intent: "two-factor-confirm",
    message: "dashboard.twoFactor.enabled",
    backupCodes: CODES,
  };

  it("can be copied one a line, or downloaded as a text file, when shown", async () => {
    const html = await renderAt(
      <TwoFactorCard state={{ status: "on", backupCodesLeft: 3 }} result={shown} />,
    );
    expect(html).toContain('aria-label="Copy the backup codes"');
    expect(html).toContain('data-copy="backup-codes-list"');
    const link = /<a [^>]*download="hostfront-backup-codes.txt"[^>]*>/.exec(html)?.[0];
    expect(link).toBeDefined();
    const href = /href="data:text\/plain;charset=utf-8,([^"]*)"/.exec(link!)?.[1];
    const file = decodeURIComponent(href!.replaceAll("&amp;", "&"));
    expect(file).toBe(
      `Hostfront: backup codes for two-factor sign-in. Each code signs you in once.\n\n${CODES.join("\n")}\n`,
    );
  });

  it("are not offered once shown (the card without new codes)", async () => {
    const html = await renderAt(<TwoFactorCard state={{ status: "on", backupCodesLeft: 3 }} />);
    expect(html).not.toContain("backup-codes-list");
    expect(html).not.toContain("download=");
  });

  it("name the file's heading in the reader's language", async () => {
    const html = await renderAt(
      <TwoFactorCard state={{ status: "on", backupCodesLeft: 3 }} result={shown} />,
      "fr",
    );
    expect(html).toContain(
      encodeURIComponent("Hostfront : codes de secours de la connexion en deux étapes."),
    );
    expect(html).toContain("Télécharger (.txt)");
  });

  it("keep the file's extension whole in Arabic text (isolated from the words around it)", async () => {
    const html = await renderAt(
      <TwoFactorCard state={{ status: "on", backupCodesLeft: 3 }} result={shown} />,
      "ar",
    );
    expect(html).toContain("تنزيل (\u2068.txt\u2069)");
  });
});

describe("the account tab's cards", () => {
  it("show each answer in the card that asked: an ended session in the sessions card", async () => {
    const html = await renderAt(
      <AccountTab
        profile={{ name: "Ann", email: "ann@example.com" }}
        sessions={[]}
        currentSessionId="s1"
        locale="en"
        sessionsResult={{ ok: true, message: "dashboard.account.sessionEnded" }}
        deletion={null}
        mail={[]}
      />,
    );
    const sessionsCard = html.slice(html.indexOf(">Sessions<"));
    const profileCard = html.slice(0, html.indexOf(">Sessions<"));
    expect(sessionsCard).toContain("Session ended.");
    expect(profileCard).not.toContain("Session ended.");
  });
});
