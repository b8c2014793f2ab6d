// A form posted from a page served without React is a plain page load (React Router runs the action and
// renders the page with its result, or follows its redirect). Meanwhile its button says so, as
// useNavigation() makes it do on a hydrated page: disabled, aria-busy, and the text in data-busy-text.
export function enhanceBusyButtons(document: Document) {
  document.addEventListener("submit", (event) => {
    if (event.defaultPrevented || !(event.target instanceof HTMLFormElement)) return;
    const button = event.submitter ?? event.target.querySelector("[type=submit]");
    if (!(button instanceof HTMLButtonElement) || !button.dataset.busyText) return;
    const busyText = button.dataset.busyText;
    // On the next tick: the browser has read the form by then (a disabled button would be left out).
    setTimeout(() => {
      button.dataset.idleText = button.textContent ?? "";
      button.textContent = busyText;
      button.disabled = true;
      button.setAttribute("aria-busy", "true");
    });
  });
  // Back to a page kept in the back-forward cache: its buttons work again.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-idle-text]")) {
      button.textContent = button.dataset.idleText ?? "";
      button.disabled = false;
      button.removeAttribute("aria-busy");
      delete button.dataset.idleText;
    }
  });
}
