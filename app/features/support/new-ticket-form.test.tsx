import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { renderHtml } from "../../../tests/support/render-html";
import { NewTicketForm } from "./new-ticket-form";

function render(node: React.ReactNode, locale: "en" | "fr" | "ar") {
  const Stub = createRoutesStub([{ path: "/", Component: () => node }]);
  return renderHtml(<Stub initialEntries={["/"]} />, locale);
}

// A customer past the account's limits gets the form back (routes/support/new.tsx): the wait in their
// language above it, and what they typed still in its fields.
describe("the new-ticket form past the limits", () => {
  const typed = {
    department: "billing",
    subject: "Refund for order 41",
    priority: "high",
    message: "I was charged twice",
  };
  const form = (
    formError: "tickets.errors.tooManyTickets" | "tickets.errors.tooManyTicketsToday",
  ) => (
    <NewTicketForm
      ticketsOpen
      idempotencyKey="9b6f3c1e-0000-4000-8000-000000000001"
      defaults={{ department: "technical", subject: "", message: "" }}
      services={[]}
      state={{ formError, formErrorCount: 7, values: typed }}
    />
  );

  it.each([
    ["en", "Please wait 7 minutes before opening another; what you wrote is kept below."],
    ["fr", "Veuillez patienter 7 minutes avant d&#x27;en ouvrir un autre"],
    // Arabic isolates the number (U+2068 … U+2069), as every number in its texts.
    ["ar", "يُرجى الانتظار \u20687\u2069 دقائق قبل فتح تذكرة أخرى"],
  ] as const)("says how long to wait in %s and keeps what was typed", async (locale, text) => {
    const html = await render(form("tickets.errors.tooManyTickets"), locale);
    expect(html).toContain(text);
    expect(html).toContain('value="Refund for order 41"');
    expect(html).toContain("I was charged twice</textarea>");
    expect(html).not.toContain("tooMany");
  });

  it("says the day's limit in hours", async () => {
    const html = await render(form("tickets.errors.tooManyTicketsToday"), "en");
    expect(html).toContain("Please wait 7 hours before opening another");
  });
});
