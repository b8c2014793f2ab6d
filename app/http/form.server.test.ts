import { describe, expect, it } from "vitest";
import { z } from "~/lib/zod";
import { parseForm } from "./form.server";

const schema = z.object({ name: z.string().min(1), password: z.string().min(1) });

function post(body: string, type = "application/x-www-form-urlencoded") {
  return new Request("http://localhost/x", {
    method: "POST",
    headers: { "content-type": type },
    body,
  });
}

describe("parseForm", () => {
  it("drops NUL characters, which PostgreSQL refuses in text", async () => {
    const result = await parseForm(post("name=Am%00ine&password=x"), schema);
    expect(result).toEqual({ ok: true, data: { name: "Amine", password: "x" } });
  });

  it("returns the first message per field and what was typed, never the passwords", async () => {
    const result = await parseForm(
      post("name=&password=secret"),
      z.object({ name: z.string().min(1, "required"), password: z.string().max(2, "long") }),
    );
    expect(result).toEqual({
      ok: false,
      fieldErrors: { name: "required", password: "long" },
      values: { name: "" },
    });
  });

  it("treats a body that is not a form as an empty form", async () => {
    const result = await parseForm(post("{not json", "application/json"), schema);
    expect(result.ok).toBe(false);
  });
});
