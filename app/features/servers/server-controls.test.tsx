// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { createRoutesStub, useActionData } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerPageView } from "~/domain/servers/server-control";
import { createI18n } from "~/i18n/i18n";
import { loadResources } from "~/i18n/resources";
import type { Translator } from "~/i18n/translator";
import { I18nProvider } from "~/i18n/translator-context";
import { renderHtml } from "../../../tests/support/render-html";
import type { ServerAnswer } from "./server-answers";
import { pageView, statusView } from "../../../tests/support/server-fixtures";
import { ServerControl } from "./server-page";

// What may be asked of a server, in the browser: start and restart post at once, stop, kill and
// reinstall ask first in the kit's dialog (and, without scripts, on a step of the page); a refusal
// disables them with its words; each answer is said in the section that asked.

let i18n: Translator;
beforeAll(async () => {
  i18n = await createI18n("en", await loadResources("en"));
  // jsdom has <dialog> but not showModal() and close() (as in app/components/ui/dialog.test.tsx).
  HTMLDialogElement.prototype.showModal = vi.fn(function (this: HTMLDialogElement) {
    this.setAttribute("open", "");
  });
  HTMLDialogElement.prototype.close = vi.fn(function (this: HTMLDialogElement) {
    if (!this.open) return;
    this.removeAttribute("open");
    this.dispatchEvent(new Event("close"));
  });
});

beforeEach(() => {
  // The card's refresh asks nothing of the network here.
  vi.stubGlobal(
    "fetch",
    vi.fn(() => new Promise(() => {})),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const PAGE = "/dashboard/services/7";

/** The server's sections at PAGE, its forms posting to an action that keeps what they sent. */
function renderControl(
  view: ServerPageView = pageView(),
  answer: (form: FormData) => ServerAnswer = () => ({
    ok: true,
    form: "power",
    message: "services.server.asked.power",
  }),
) {
  const posts: Record<string, string>[] = [];
  function Page() {
    const answered = useActionData() as ServerAnswer | undefined;
    return (
      <I18nProvider i18n={i18n}>
        <ServerControl
          view={view}
          locale="en"
          pagePath={PAGE}
          statusPath={`${PAGE}/status`}
          answer={answered}
        />
      </I18nProvider>
    );
  }
  const Stub = createRoutesStub([
    {
      path: PAGE,
      Component: Page,
      action: async ({ request }) => {
        const form = await request.formData();
        posts.push(Object.fromEntries(form) as Record<string, string>);
        return answer(form);
      },
    },
  ]);
  render(<Stub initialEntries={[PAGE]} />);
  return posts;
}

const powerCard = () => screen.getByTestId("server-power").parentElement!;

describe("the power buttons", () => {
  it("start and restart post at once", async () => {
    const posts = renderControl();
    fireEvent.click(screen.getByRole("button", { name: "Restart" }));
    await waitFor(() => expect(posts).toEqual([{ intent: "power", signal: "restart" }]));
    expect(
      await within(powerCard()).findByText("Asked: the server does it in a moment."),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Start" }));
    await waitFor(() => expect(posts).toHaveLength(2));
    expect(posts[1]).toEqual({ intent: "power", signal: "start" });
  });

  it("ask before stopping: the dialog says what it does, and only its confirmation posts", async () => {
    const posts = renderControl();
    const stop = screen.getByRole("link", { name: "Stop" });
    // Without scripts, the link leads to the page's confirmation step.
    expect(stop.getAttribute("href")).toBe(`${PAGE}?confirm=stop#server-confirm`);
    fireEvent.click(stop);
    const dialog = screen.getByRole("alertdialog", { name: "Stop Los Santos RP?" });
    expect(dialog.textContent).toContain("Everyone playing is disconnected.");
    expect(posts).toEqual([]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(posts).toEqual([]);

    fireEvent.click(screen.getByRole("link", { name: "Stop" }));
    fireEvent.click(
      within(screen.getByRole("alertdialog")).getByRole("button", { name: "Stop the server" }),
    );
    await waitFor(() => expect(posts).toEqual([{ intent: "power", signal: "stop" }]));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
  });

  it("ask before killing, saying what is lost", async () => {
    const posts = renderControl();
    fireEvent.click(screen.getByRole("link", { name: "Kill" }));
    const dialog = screen.getByRole("alertdialog", { name: "Kill Los Santos RP?" });
    expect(dialog.textContent).toContain("without saving");
    fireEvent.click(within(dialog).getByRole("button", { name: "Kill the server" }));
    await waitFor(() => expect(posts).toEqual([{ intent: "power", signal: "kill" }]));
  });

  it("are disabled with the refusal's words while the server refuses them", () => {
    renderControl(pageView({ status: statusView({ state: "suspended", refusal: "suspended" }) }));
    const words = "This server is suspended: it cannot be started or changed.";
    const refusal = screen.getByTestId("server-power-refusal");
    expect(refusal.textContent).toBe(words);
    for (const name of ["Start", "Restart", "Stop", "Kill"]) {
      const button = within(powerCard()).getByRole("button", { name });
      expect(button.hasAttribute("disabled"), name).toBe(true);
      expect(button.getAttribute("aria-describedby"), name).toBe("server-power-refusal");
    }
    expect(screen.queryByRole("link", { name: "Stop" })).toBeNull();
    expect(screen.getByRole("button", { name: "Reinstall" }).hasAttribute("disabled")).toBe(true);
    expect(screen.getByRole("button", { name: "Save Max players" }).hasAttribute("disabled")).toBe(
      true,
    );
  });

  it("say the server's refusal of a request in the section that asked", async () => {
    renderControl(pageView(), () => ({ ok: false, form: "power", refusal: "tooMany" }));
    fireEvent.click(screen.getByRole("button", { name: "Start" }));
    expect(
      await within(powerCard()).findByText(
        "Too many requests for this server. Try again in a few minutes.",
      ),
    ).toBeTruthy();
  });
});

describe("the reinstall", () => {
  it("says it wipes the files, and asks again before posting its confirmation", async () => {
    const posts = renderControl(pageView(), () => ({
      ok: true,
      form: "reinstall",
      message: "services.server.asked.reinstall",
    }));
    expect(screen.getByText(/it wipes the server's files/)).toBeTruthy();
    fireEvent.click(screen.getByRole("link", { name: "Reinstall" }));
    const dialog = screen.getByRole("alertdialog", { name: "Reinstall Los Santos RP?" });
    expect(dialog.textContent).toContain("wipes all of the server's files");
    expect(dialog.textContent).toContain("cannot be undone");
    fireEvent.click(within(dialog).getByRole("button", { name: "Wipe the files and reinstall" }));
    await waitFor(() => expect(posts).toEqual([{ intent: "reinstall", confirm: "on" }]));
    expect(await screen.findByText(/Reinstall asked/)).toBeTruthy();
  });
});

describe("the game's settings", () => {
  it("edit each editable one in a form of its own, and show the others as text", async () => {
    const posts = renderControl(pageView(), (form) => ({
      ok: false,
      form: "variable",
      env: String(form.get("env")),
      message: "common.errors.invalid",
      fieldErrors: { value: "common.errors.invalid" },
      values: { env: String(form.get("env")), value: String(form.get("value")) },
    }));
    const field = screen.getByLabelText<HTMLInputElement>("Max players");
    expect(field.value).toBe("50");
    expect(field.getAttribute("aria-describedby")).toBe("server-variable-MAX_PLAYERS-hint");
    expect(screen.getByText("How many may play at once.")).toBeTruthy();
    const readOnly = screen.getByTestId("server-variables-read-only");
    expect(readOnly.textContent).toContain("Server binary");
    expect(readOnly.textContent).toContain("samp03svr");
    expect(screen.queryByLabelText("Server binary")).toBeNull();

    fireEvent.change(field, { target: { value: "5000" } });
    fireEvent.click(screen.getByRole("button", { name: "Save Max players" }));
    await waitFor(() =>
      expect(posts).toEqual([{ intent: "variable", env: "MAX_PLAYERS", value: "5000" }]),
    );
    // Refused: the field keeps what was typed and says why.
    await waitFor(() =>
      expect(screen.getByLabelText("Max players").getAttribute("aria-invalid")).toBe("true"),
    );
    expect(screen.getByLabelText<HTMLInputElement>("Max players").value).toBe("5000");
  });
});

describe("the card while the page is open", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("changes in place as the state moves, asking every 2 s while it moves, then every 10 s", async () => {
    const answers = [
      statusView({ state: "starting", ageSeconds: 1, players: null }),
      statusView({ state: "running", ageSeconds: 0 }),
    ];
    const asked: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        asked.push(url);
        return Response.json(answers.shift() ?? statusView({ ageSeconds: 3 }));
      }),
    );
    renderControl(pageView({ status: statusView({ state: "offline", players: null }) }));
    const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
    const card = () => screen.getByTestId("server-state").closest("[data-server-state]")!;
    const first = card();
    expect(screen.getByTestId("server-state").textContent).toBe("Offline");
    await wait(10_000);
    expect(asked).toEqual([`${PAGE}/status`]);
    expect(screen.getByTestId("server-state").textContent).toBe("Starting");
    await wait(2_000);
    expect(asked).toHaveLength(2);
    expect(screen.getByTestId("server-state").textContent).toBe("Running");
    expect(screen.getByTestId("server-players").textContent).toContain("7 / 50");
    // The same card, changed in place.
    expect(card()).toBe(first);
    await wait(9_999);
    expect(asked).toHaveLength(2);
    await wait(1);
    expect(asked).toHaveLength(3);
    expect(screen.getByTestId("server-age").textContent).toBe("Updated 3 s ago");
  });
});

describe("the page without scripts", () => {
  async function html(url: string, view: ServerPageView = pageView(), staff = false) {
    const path = url.split("?")[0]!;
    const Stub = createRoutesStub([
      {
        path,
        Component: () => (
          <ServerControl
            view={view}
            locale="en"
            pagePath={path}
            statusPath={`${path}/status`}
            staff={staff}
          />
        ),
      },
    ]);
    const root = document.createElement("div");
    root.innerHTML = await renderHtml(<Stub initialEntries={[url]} />);
    return root;
  }

  it("confirms on a step of the page, whose form posts what the dialog's does", async () => {
    const page = await html(`${PAGE}?confirm=kill`);
    const step = page.querySelector("#server-confirm")!;
    expect(step.querySelector("h2")?.textContent).toBe("Kill Los Santos RP?");
    const form = step.querySelector("form")!;
    expect(form.getAttribute("action")).toBe(PAGE);
    expect(form.getAttribute("method")).toBe("post");
    const hidden = [...form.querySelectorAll<HTMLInputElement>("input[type=hidden]")].map(
      (input) => `${input.name}=${input.value}`,
    );
    expect(hidden).toEqual(["intent=power", "signal=kill"]);
    expect(step.querySelector(`a[href="${PAGE}"]`)?.textContent).toBe("Cancel");
    // Without a confirmation asked, no step.
    expect((await html(PAGE)).querySelector("#server-confirm")).toBeNull();
  });

  it("confirms a reinstall with its confirmation ticked, and shows no form while refused", async () => {
    const page = await html(`${PAGE}?confirm=reinstall`);
    const hidden = [
      ...page.querySelectorAll<HTMLInputElement>("#server-confirm input[type=hidden]"),
    ].map((input) => `${input.name}=${input.value}`);
    expect(hidden).toEqual(["intent=reinstall", "confirm=on"]);
    const refused = await html(
      `${PAGE}?confirm=stop`,
      pageView({ status: statusView({ refusal: "installing" }) }),
    );
    expect(refused.querySelector("#server-confirm form")).toBeNull();
    expect(refused.querySelector("#server-confirm")?.textContent).toContain(
      "This server is being installed",
    );
  });

  it("leaves the customer's own sections out of the staff's page", async () => {
    const staff = await html("/admin/services/7/panel?confirm=reinstall", pageView(), true);
    expect(staff.querySelector("#server-confirm")).toBeNull();
    expect(staff.textContent).not.toContain("Offline notice");
    expect(staff.textContent).not.toContain("Wipe the files");
    expect(
      staff.querySelector('a[href="/admin/services/7/panel?confirm=stop#server-confirm"]'),
    ).not.toBeNull();
    const customer = await html(PAGE);
    expect(customer.textContent).toContain("Offline notice");
    const notice = customer.querySelector<HTMLInputElement>('input[name="notice"]');
    expect(notice?.value).toBe("on");
  });
});
