import { describe, expect, it } from "vitest";
import { z } from "~/lib/zod";
import { inUploadTurn, parseForm, parseFormWithFiles, typedValues } from "./form.server";

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

  it("never returns the proof of identity a sensitive form carries (the password or a code)", async () => {
    const result = await parseForm(
      post("name=&proof=My-password-1&proofNote=kept"),
      z.object({ name: z.string().min(1, "required") }),
    );
    expect(result).toEqual({
      ok: false,
      fieldErrors: { name: "required" },
      values: { name: "", proofNote: "kept" },
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

  it("answers a check that names no message with the catalogue's own, never zod's English", async () => {
    const result = await parseForm(
      post("coins=2000000&name=x"),
      z.object({
        coins: z.union([
          z.literal("").transform(() => undefined),
          z
            .string()
            .regex(/^\d{1,3}$/, "errors.coinsNotWhole")
            .transform(Number)
            .pipe(z.number().min(1, "errors.coinsNotWhole")),
        ]),
        name: z.string().min(2),
      }),
      { namespace: "payments" },
    );
    expect(result).toEqual({
      ok: false,
      fieldErrors: { coins: "common.errors.invalid", name: "common.errors.invalid" },
      values: { coins: "2000000", name: "x" },
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

  it("leaves the secrets out: passwords and the proof of identity", async () => {
    expect(
      await typedValues(post("slug=vps-1&proof=123456&currentPassword=pw&Password2=pw")),
    ).toEqual({ slug: "vps-1" });
  });
});

describe("parseFormWithFiles", () => {
  const fields = z.object({ intent: z.string().min(1, "required") });
  function upload(form: FormData) {
    return new Request("http://localhost/x", { method: "POST", body: form });
  }

  it("hands over the files of one field as sent, and the text fields parsed", async () => {
    const form = new FormData();
    form.set("intent", "paid");
    form.append("proofs", new File([new Uint8Array([1, 2, 3])], "reçu.png", { type: "text/html" }));
    form.append("proofs", new File([new Uint8Array([4])], "b.pdf"));
    form.append("other", new File([new Uint8Array([5])], "c.pdf"));
    const result = await parseFormWithFiles(upload(form), fields, "proofs");
    expect(result.ok && result.data).toEqual({ intent: "paid" });
    expect(result.files).toEqual([
      { name: "reçu.png", bytes: new Uint8Array([1, 2, 3]) },
      { name: "b.pdf", bytes: new Uint8Array([4]) },
    ]);
  });

  it("leaves out the empty part an empty file input sends, and reads a file's field as no text", async () => {
    const form = new FormData();
    form.append("proofs", new File([], ""));
    form.set("intent", new File([new Uint8Array([1])], "intent.txt"));
    const result = await parseFormWithFiles(upload(form), fields, "proofs");
    expect(result.files).toEqual([]);
    expect(result).toMatchObject({ ok: false, fieldErrors: { intent: "required" } });
  });

  it("reads a body that is not a form as an empty form without files", async () => {
    const result = await parseFormWithFiles(post("{", "application/json"), fields, "proofs");
    expect(result).toMatchObject({ ok: false, files: [] });
  });
});

describe("inUploadTurn", () => {
  /** Work the test ends when it chooses, noting when it starts. */
  function gated(started: string[], name: string) {
    let end!: () => void;
    const ended = new Promise<string>((resolve) => (end = () => resolve(name)));
    return { work: () => (started.push(name), ended), end };
  }
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  const upload = () => post("--x--", "multipart/form-data; boundary=x");

  it("runs one upload at a time in a process, and a post without files at once", async () => {
    const started: string[] = [];
    const [first, second, plain] = ["first", "second", "plain"].map((name) => gated(started, name));
    const runs = [
      inUploadTurn(upload(), first!.work),
      inUploadTurn(upload(), second!.work),
      inUploadTurn(post("name=x"), plain!.work),
    ];
    await settle();
    expect([...started].sort()).toEqual(["first", "plain"]);
    first!.end();
    await settle();
    expect(started.at(-1)).toBe("second");
    second!.end();
    plain!.end();
    expect(await Promise.all(runs)).toEqual(["first", "second", "plain"]);
  });
});
