import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { renderHtml } from "../../../tests/support/render-html";
import { NewTicketForm } from "./new-ticket-form";

function render(node: React.ReactNode, locale: "en" | "fr" | "ar") {
  const Stub = createRoutesStub([{ path: "/", Component: () => node }]);
  return renderHtml(<Stub initialEntries={["/"]} />, locale);
}

// A file refused by the server (routes/support/new.tsx): the form comes back as typed, a multipart form
// with its file input, and the refusal under the files names the file and why, in the reader's language.
describe("the new-ticket form with a file refused", () => {
  const form = (
    <NewTicketForm
      ticketsOpen
      idempotencyKey="9b6f3c1e-0000-4000-8000-000000000002"
      defaults={{ department: "technical", subject: "", message: "" }}
      services={[]}
      state={{
        values: { department: "technical", subject: "Crash", message: "It crashed at 10:42" },
        filesError: {
          message: "tickets.files.errors.misnamed",
          params: { name: "shot.png", extension: "png" },
        },
      }}
    />
  );

  it.each([
    ["en", "shot.png is not what its name says: its content is not a .png file."],
    ["fr", "shot.png n&#x27;est pas ce que dit son nom"],
    // Arabic isolates what it names (U+2068 … U+2069), as every value in its texts.
    ["ar", "\u2068shot.png\u2069 ليس كما يدل اسمه"],
  ] as const)("says which file and why in %s, and keeps what was typed", async (locale, text) => {
    const html = await render(form, locale);
    expect(html).toContain(text);
    expect(html).toContain("It crashed at 10:42</textarea>");
    expect(html).toMatch(/<form[^>]+enctype="multipart\/form-data"/i);
    expect(html).toMatch(/<input[^>]+type="file" multiple=""[^>]+name="files"/);
    expect(html).toContain('aria-invalid="true"');
  });
});
