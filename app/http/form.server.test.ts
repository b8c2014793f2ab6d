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

  it("reads a body that is not a form as an empty form: every required field reports itself", async () => {
    const result = await parseForm(
      post("{not json", "application/json"),
      z.object({ name: z.string("required"), password: z.string("passwordRequired") }),
    );
    expect(result).toEqual({
      ok: false,
      fieldErrors: { name: "required", password: "passwordRequired" },
      values: {},
    });
  });

  it("prefixes the messages of a schema written for a namespace", async () => {
    const result = await parseForm(
      post("name=&password="),
      z.object({
        name: z.string().min(1, "errors.nameRequired"),
        password: z.string().min(1, "errors.passwordRequired"),
      }),
      { namespace: "auth" },
    );
    expect(result).toEqual({
      ok: false,
      fieldErrors: { name: "auth.errors.nameRequired", password: "auth.errors.passwordRequired" },
      values: { name: "" },
    });
  });
});

describe("typedValues", () => {
  it("returns the form's text fields as typed", async () => {
    expect(await typedValues(post("slug=vps-1&price=4%2C99"))).toEqual({
      slug: "vps-1",
      price: "4,99",
    });
  });

  it("reads a body that is not a form as no fields", async () => {
    expect(await typedValues(post("{}", "application/json"))).toEqual({});
  });
});
