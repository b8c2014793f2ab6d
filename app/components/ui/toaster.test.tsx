// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createI18n } from "~/i18n/i18n";
import { loadResources } from "~/i18n/resources";
import type { Translator } from "~/i18n/translator";
import { I18nProvider } from "~/i18n/translator-context";
import { clearToasts, currentToasts, showToast, TOAST_DURATION_MS, Toaster } from "./toaster";

let en: Translator;
let ar: Translator;
beforeAll(async () => {
  en = await createI18n("en", await loadResources("en"));
  ar = await createI18n("ar", await loadResources("ar"));
});

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  cleanup();
  act(() => clearToasts());
  vi.useRealTimers();
});

function mount(i18n = en, dir: "ltr" | "rtl" = "ltr") {
  render(
    <I18nProvider i18n={i18n}>
      <Toaster dir={dir} />
    </I18nProvider>,
  );
  return document.querySelector<HTMLElement>("[data-toaster]")!;
}

const texts = () =>
  [...document.querySelectorAll("[data-toast] [data-toast-text]")].map((p) => p.textContent);

/** The one toast, "Saved", stays `ms` milliseconds more, and not one more. */
function expectShownFor(ms: number) {
  act(() => vi.advanceTimersByTime(ms - 1));
  expect(texts()).toEqual(["Saved"]);
  act(() => vi.advanceTimersByTime(1));
  expect(texts()).toEqual([]);
}

describe("Toaster", () => {
  it("is an empty live region at the top until a toast, in the page's direction", () => {
    const region = mount(ar, "rtl");
    expect(region.tagName).toBe("SECTION");
    expect(region.getAttribute("aria-live")).toBe("polite");
    expect(region.getAttribute("dir")).toBe("rtl");
    expect(region.getAttribute("aria-label")).toBe(ar.t("nav.notifications"));
    expect(region.children).toHaveLength(0);
  });

  it("shows a toast with its type and a 44 px close button named in the page's language", () => {
    mount(ar, "rtl");
    act(() => showToast("error", "Failed"));
    const toast = document.querySelector<HTMLElement>("[data-toast]")!;
    expect(toast.dataset.type).toBe("error");
    expect(texts()).toEqual(["Failed"]);
    const close = screen.getByRole("button", { name: ar.t("toast.close") });
    expect(close.className).toContain("size-11");
    fireEvent.click(close);
    expect(texts()).toEqual([]);
  });

  it("goes after 4000 ms", () => {
    mount();
    act(() => showToast("success", "Saved"));
    expectShownFor(TOAST_DURATION_MS);
  });

  it("waits while the pointer or the focus is on it, then takes the time it had left", () => {
    mount();
    act(() => showToast("success", "Saved"));
    const toast = document.querySelector<HTMLElement>("[data-toast]")!;
    act(() => vi.advanceTimersByTime(1000));
    fireEvent.pointerEnter(toast);
    fireEvent.focus(screen.getByRole("button", { name: "Close notification" }));
    act(() => vi.advanceTimersByTime(10_000));
    expect(texts()).toEqual(["Saved"]);
    fireEvent.pointerLeave(toast);
    act(() => vi.advanceTimersByTime(10_000));
    // Still focused.
    expect(texts()).toEqual(["Saved"]);
    fireEvent.blur(screen.getByRole("button", { name: "Close notification" }));
    expectShownFor(TOAST_DURATION_MS - 1000);
  });

  it("shows at most three, the oldest going first", () => {
    mount();
    act(() => {
      for (const text of ["one", "two", "three", "four"]) showToast("success", text);
    });
    expect(texts()).toEqual(["two", "three", "four"]);
  });

  it("replaces the text of a toast with the same id instead of adding one, keeping its time", () => {
    mount();
    act(() => showToast("success", "Login successful!", { id: "success:toast.loggedIn" }));
    act(() => vi.advanceTimersByTime(3000));
    act(() => showToast("success", "Connexion réussie !", { id: "success:toast.loggedIn" }));
    expect(texts()).toEqual(["Connexion réussie !"]);
    expect(currentToasts()).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1000));
    expect(texts()).toEqual([]);
    // Without an id, or with another, each is a toast of its own.
    act(() => {
      showToast("success", "Copied");
      showToast("success", "Copied");
      showToast("error", "Other", { id: "other" });
    });
    expect(texts()).toEqual(["Copied", "Copied", "Other"]);
  });

  it("shows toasts asked for before it is on the page", () => {
    act(() => showToast("success", "Early"));
    mount();
    expect(texts()).toEqual(["Early"]);
  });
});
