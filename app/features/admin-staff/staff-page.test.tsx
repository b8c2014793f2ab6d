// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { createRoutesStub, useActionData } from "react-router";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { StaffRole } from "~/domain/staff/permissions";
import { createI18n } from "~/i18n/i18n";
import { loadResources } from "~/i18n/resources";
import type { Translator } from "~/i18n/translator";
import { I18nProvider } from "~/i18n/translator-context";
import type { StaffActionResult, StaffMember } from "./staff-shared";
import { StaffPage } from "./staff-page";

// The staff page in the browser: the role selects offer Owner only to an Owner, nobody is offered a
// change of their own role nor (unless an Owner) of an Owner's, and a refused add stays open with why.

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

afterEach(cleanup);

const MEMBERS: StaffMember[] = [
  {
    id: "owner-1",
    name: "Olivia Owner",
    email: "olivia@example.com",
    staffRole: "owner",
    twoFactorEnabled: true,
    lastSignInAt: "2026-11-20T08:30:00.000Z",
  },
  {
    id: "billing-1",
    name: "Bilal Billing",
    email: "bilal@example.com",
    staffRole: "billing",
    twoFactorEnabled: false,
    lastSignInAt: null,
  },
];

function renderPage(
  actor: { id: string; role: StaffRole | null },
  answer: () => StaffActionResult = () => ({ ok: true, message: "admin-staff.members.added" }),
  proofFresh = true,
) {
  function Page() {
    const result = useActionData() as StaffActionResult | undefined;
    return (
      <StaffPage
        members={MEMBERS}
        adminId={actor.id}
        actorRole={actor.role}
        locale="en"
        proofFresh={proofFresh}
        result={result}
      />
    );
  }
  const Stub = createRoutesStub([{ path: "/admin/staff", Component: Page, action: answer }]);
  render(
    <I18nProvider i18n={i18n}>
      <Stub initialEntries={["/admin/staff"]} />
    </I18nProvider>,
  );
}

const roleOptions = (dialog: HTMLElement) =>
  within(dialog)
    .getAllByRole("option")
    .map((option) => option.textContent);

describe("the staff page", () => {
  it("lists each member with their role, two-factor sign-in and last sign-in", async () => {
    renderPage({ id: "owner-1", role: "owner" });
    const table = await screen.findByRole("table", { name: "Staff" });
    const rows = within(table).getAllByRole("row");
    expect(rows).toHaveLength(3);
    expect(rows[1]!.textContent).toContain("Olivia Owner");
    expect(rows[1]!.textContent).toContain("(you)");
    expect(rows[1]!.textContent).toContain("Another owner changes your role.");
    expect(within(rows[1]!).queryByRole("button")).toBeNull();
    expect(rows[2]!.textContent).toContain("Billing");
    expect(rows[2]!.textContent).toContain("Off");
    expect(rows[2]!.textContent).toContain("None in the last 30 days");
    expect(within(rows[1]!).getByText("On")).toBeTruthy();
    expect(rows[1]!.querySelector("time")?.getAttribute("datetime")).toBe(
      "2026-11-20T08:30:00.000Z",
    );
    // A button's spoken name starts from the words it shows, so a voice command that reads
    // the label ("Change role") finds it.
    for (const button of within(rows[2]!).getAllByRole("button")) {
      expect(button.getAttribute("aria-label")).toContain(button.textContent!.trim());
    }
  });

  it("asks for the password or a code in each change once the proof is stale, and only then", async () => {
    renderPage({ id: "owner-1", role: "owner" }, undefined, false);
    fireEvent.click(await screen.findByRole("button", { name: "Add a member" }));
    const add = await screen.findByRole("dialog", { name: "Add a member to the staff" });
    expect(within(add).getByTestId("fresh-proof")).toBeTruthy();
    fireEvent.click(within(add).getByRole("button", { name: "Cancel" }));
    fireEvent.click(screen.getByRole("button", { name: "Change role for Bilal Billing" }));
    const change = await screen.findByRole("dialog", { name: "Change the role of Bilal Billing" });
    expect(within(change).getByTestId("fresh-proof")).toBeTruthy();
  });

  it("asks for no proof while the session's is fresh", async () => {
    renderPage({ id: "owner-1", role: "owner" });
    fireEvent.click(await screen.findByRole("button", { name: "Add a member" }));
    const add = await screen.findByRole("dialog", { name: "Add a member to the staff" });
    expect(within(add).queryByTestId("fresh-proof")).toBeNull();
  });

  it("offers an Owner every role, Owner included, to add or change", async () => {
    renderPage({ id: "owner-1", role: "owner" });
    fireEvent.click(await screen.findByRole("button", { name: "Add a member" }));
    const add = await screen.findByRole("dialog", { name: "Add a member to the staff" });
    expect(roleOptions(add)).toEqual(["Owner", "Billing", "Support", "Technician"]);
    // The least powerful role is chosen unless another is.
    expect((within(add).getByLabelText("Role") as HTMLSelectElement).value).toBe("technician");
    fireEvent.click(within(add).getByRole("button", { name: "Cancel" }));

    fireEvent.click(screen.getByRole("button", { name: "Change role for Bilal Billing" }));
    const change = await screen.findByRole("dialog", { name: "Change the role of Bilal Billing" });
    expect(roleOptions(change)).toEqual(["Owner", "Billing", "Support", "Technician"]);
    expect((within(change).getByLabelText("Role") as HTMLSelectElement).value).toBe("billing");
  });

  it("offers no Owner to anyone else, nor a change of an Owner's role", async () => {
    // No role but Owner may open the page today; the page still holds to the rule for any other.
    renderPage({ id: "billing-1", role: "billing" });
    fireEvent.click(await screen.findByRole("button", { name: "Add a member" }));
    const add = await screen.findByRole("dialog", { name: "Add a member to the staff" });
    expect(roleOptions(add)).toEqual(["Billing", "Support", "Technician"]);
    fireEvent.click(within(add).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("button", { name: "Change role for Olivia Owner" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Remove Olivia Owner from the staff" })).toBeNull();
  });

  it("keeps the add dialog open on a refusal, with why and what was typed", async () => {
    renderPage({ id: "owner-1", role: "owner" }, () => ({
      ok: false,
      intent: "add",
      message: "admin-staff.members.errors.noAccount",
      values: { email: "someone@example.com", role: "support" },
    }));
    fireEvent.click(await screen.findByRole("button", { name: "Add a member" }));
    const add = await screen.findByRole("dialog", { name: "Add a member to the staff" });
    fireEvent.change(within(add).getByLabelText("Email of the account"), {
      target: { value: "someone@example.com" },
    });
    fireEvent.click(within(add).getByRole("button", { name: "Add to the staff" }));
    await waitFor(() => expect(within(add).getByText(/No account has this email/)).toBeTruthy());
    expect(screen.getByRole("dialog", { name: "Add a member to the staff" })).toBe(add);
    expect((within(add).getByLabelText("Email of the account") as HTMLInputElement).value).toBe(
      "someone@example.com",
    );
  });
});
