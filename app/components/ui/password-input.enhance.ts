// The show/hide password button (password-input.tsx) on a page served without React.
export function enhancePasswordInputs(root: ParentNode) {
  for (const button of root.querySelectorAll<HTMLButtonElement>("button[data-password-toggle]")) {
    const input = document.getElementById(button.getAttribute("aria-controls") ?? "");
    if (!(input instanceof HTMLInputElement)) continue;
    button.addEventListener("click", () => {
      const visible = input.type === "password";
      input.type = visible ? "text" : "password";
      button.setAttribute("aria-pressed", String(visible));
      const label = visible ? button.dataset.hideLabel : button.dataset.showLabel;
      if (label) button.setAttribute("aria-label", label);
    });
  }
}
