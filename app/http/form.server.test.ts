import { describe, expect, it } from "vitest";
import { z } from "~/lib/zod";
import { parseForm, typedValues } from "./form.server";

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

describe("typedValues", () => {
  it("returns the form's text fields as typed", async () => {
    expect(await typedValues(post("slug=vps-1&price=4%2C99"))).toEqual({
      slug: "vps-1",
      price: "4,99",
    });
  });

  it("treats a body that is not a form as an empty form", async () => {
    expect(await typedValues(post("{}", "application/json"))).toEqual({});
  });
});
