// @vitest-environment jsdom
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { Locale } from "~/i18n/locales";
import { renderHtml } from "../../../tests/support/render-html";
import type { ServerAnswer } from "./server-answers";
import { ServerAccessCard } from "./server-access";
import { pageView } from "../../../tests/support/server-fixtures";

// How the customer reaches the server's files and the panel: SFTP's details to copy, a new panel and SFTP
// password shown once in the answer to its post, and the panel's pages in a new tab.

const PAGE = "/dashboard/services/7";

async function access(
  props: Partial<Parameters<typeof ServerAccessCard>[0]> = {},
  locale: Locale = "en",
) {
  const view = pageView();
  const Stub = createRoutesStub([
    {
      path: PAGE,
      Component: () => (
        <ServerAccessCard
          access={view.access}
          panelLinks={view.panelLinks}
          pagePath={PAGE}
          {...props}
        />
      ),
    },
  ]);
  const root = document.createElement("div");
  root.innerHTML = await renderHtml(<Stub initialEntries={[PAGE]} />, locale);
  return root;
}

const NEW_PASSWORD: ServerAnswer = {
  ok: true,
  form: "password",
  message: "services.server.asked.password",
  password: "kT7-vQ2m-Lp9x-Wr4c",
  username: "alice.1a2b3c4d",
};

describe("the server's access", () => {
  it("gives the SFTP host, port and username, each left to right with its Copy button", async () => {
    const card = await access();
    const rows = [...card.querySelectorAll('[data-testid="server-sftp"] > div')].map((row) => ({
      term: row.querySelector("dt")?.textContent,
      value: row.querySelector("code")?.textContent,
      dir: row.querySelector("code")?.getAttribute("dir"),
      copies: row.querySelector("button[data-copy]")?.getAttribute("data-copy"),
      name: row.querySelector("button[data-copy]")?.getAttribute("aria-label"),
    }));
    expect(rows).toEqual([
      {
        term: "Host",
        value: "node1.panel.example",
        dir: "ltr",
        copies: "server-sftp-host",
        name: "Copy the SFTP host",
      },
      {
        term: "Port",
        value: "2022",
        dir: "ltr",
        copies: "server-sftp-port",
        name: "Copy the SFTP port",
      },
      {
        term: "Username",
        value: "alice.1a2b3c4d",
        dir: "ltr",
        copies: "server-sftp-username",
        name: "Copy the SFTP username",
      },
    ]);
    // Each Copy copies its own line.
    for (const row of rows)
      expect(card.querySelector(`#${row.copies}`)?.textContent).toBe(row.value);
  });

  it("says when SFTP's details are not known yet", async () => {
    const card = await access({ access: null });
    expect(card.querySelector('[data-testid="server-sftp"]')).toBeNull();
    expect(card.textContent).toContain("The SFTP details are not known yet");
  });

  it("offers a new panel and SFTP password as a plain post", async () => {
    const card = await access();
    const form = card.querySelector('[data-testid="server-password"] form')!;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toBe(PAGE);
    expect(form.querySelector<HTMLInputElement>("input[name=intent]")?.value).toBe("password");
    expect(form.querySelector("button")?.textContent).toBe(
      "Set a new game panel and SFTP password",
    );
    expect(card.querySelector('[data-testid="server-new-password"]')).toBeNull();
  });

  it("shows the new password once, in the answer to its post, with Copy and a warning", async () => {
    const card = await access({ answer: NEW_PASSWORD });
    const shown = card.querySelector('[data-testid="server-new-password"]')!;
    const value = shown.querySelector("#server-new-password-value")!;
    expect(value.textContent).toBe("kT7-vQ2m-Lp9x-Wr4c");
    expect(value.getAttribute("dir")).toBe("ltr");
    const copy = shown.querySelector("button[data-copy]")!;
    expect(copy.getAttribute("data-copy")).toBe("server-new-password-value");
    expect(copy.getAttribute("aria-label")).toBe("Copy the new password");
    expect(shown.textContent).toContain("alice.1a2b3c4d");
    expect(shown.textContent).toContain("Copy it now: it will not be shown again.");
    // No second form beside it: another post would draw another password.
    expect(card.querySelector('[data-testid="server-password"] form')).toBeNull();
    // Any other answer (or none, once the page is loaded again) shows no password.
    const other = await access({
      answer: { ok: true, form: "power", message: "services.server.asked.power" },
    });
    expect(other.textContent).not.toContain("kT7-vQ2m-Lp9x-Wr4c");
    expect(other.querySelector('[data-testid="server-password"] form')).not.toBeNull();
  });

  it("says why a new password was refused, and keeps the form", async () => {
    const card = await access({ answer: { ok: false, form: "password", refusal: "tooMany" } });
    const section = card.querySelector('[data-testid="server-password"]')!;
    expect(section.querySelector('[role="status"]')?.textContent).toBe(
      "Too many requests for this server. Try again in a few minutes.",
    );
    expect(section.querySelector("form")).not.toBeNull();
  });

  it("links the panel's console, files and startup pages in a new tab", async () => {
    const card = await access();
    const links = [...card.querySelectorAll('[data-testid="server-panel-links"] a')].map((a) => ({
      href: a.getAttribute("href"),
      target: a.getAttribute("target"),
      rel: a.getAttribute("rel"),
      text: a.textContent,
    }));
    expect(links).toEqual([
      {
        href: "https://panel.example/server/1a2b3c4d",
        target: "_blank",
        rel: "noopener noreferrer",
        text: "Console (opens in a new tab)",
      },
      {
        href: "https://panel.example/server/1a2b3c4d/files",
        target: "_blank",
        rel: "noopener noreferrer",
        text: "Files (opens in a new tab)",
      },
      {
        href: "https://panel.example/server/1a2b3c4d/startup",
        target: "_blank",
        rel: "noopener noreferrer",
        text: "Startup (opens in a new tab)",
      },
    ]);
    expect(
      (await access({ panelLinks: null })).querySelector('[data-testid="server-panel-links"]'),
    ).toBeNull();
  });

  it("is written in Arabic with its details left to right", async () => {
    const card = await access({ answer: NEW_PASSWORD }, "ar");
    expect(card.textContent).toContain("انسخها الآن: لن تُعرض مرة أخرى.");
    expect(card.querySelector("#server-sftp-host")?.getAttribute("dir")).toBe("ltr");
    expect(card.querySelector("#server-new-password-value")?.getAttribute("dir")).toBe("ltr");
  });
});
