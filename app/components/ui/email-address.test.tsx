import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EmailAddress, emailPieces } from "./email-address";

describe("an email address on a narrow screen", () => {
  it("breaks after the @ and before the domain's dots, nowhere else", () => {
    expect(emailPieces("nadia.benali+shop@mail.example.com")).toEqual([
      "nadia.benali+shop@",
      "mail",
      ".example",
      ".com",
    ]);
    expect(emailPieces("localhost-user")).toEqual(["localhost-user"]);
    expect(emailPieces("@odd")).toEqual(["@odd"]);
    expect(emailPieces("a@b@c.io")).toEqual(["a@b@", "c", ".io"]);
  });

  it("is written left to right, with a break opportunity at each point, the text unchanged", () => {
    const html = renderToStaticMarkup(<EmailAddress email="mia@example.ma" />);
    expect(html).toBe('<span dir="ltr" class="wrap-break-word">mia@<wbr/>example<wbr/>.ma</span>');
  });
});
