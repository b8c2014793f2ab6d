import { describe, expect, it } from "vitest";
import { serverActionRequestOf, serverControlSchema } from "./server-control.schemas";
import { VARIABLE_VALUE_MAX } from "./server-actions";

const parse = (fields: Record<string, string>) => serverControlSchema.safeParse(fields);
const messages = (fields: Record<string, string>) => {
  const result = parse(fields);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe("a server's forms", () => {
  it("reads each power signal, and refuses any other", () => {
    for (const signal of ["start", "restart", "stop", "kill"])
      expect(parse({ intent: "power", signal }).data).toEqual({ intent: "power", signal });
    expect(messages({ intent: "power", signal: "reboot" })).toEqual([
      "services.server.errors.signal",
    ]);
    expect(messages({ intent: "power" })).toEqual(["services.server.errors.signal"]);
  });

  it("takes a reinstall only with its confirmation ticked", () => {
    expect(parse({ intent: "reinstall", confirm: "on" }).data).toEqual({
      intent: "reinstall",
      confirm: "on",
    });
    for (const confirm of [undefined, "", "off", "true", "yes"])
      expect(
        messages(
          confirm === undefined ? { intent: "reinstall" } : { intent: "reinstall", confirm },
        ),
      ).toEqual(["services.server.errors.confirmReinstall"]);
  });

  it("reads a variable's name and its value trimmed, an empty value included", () => {
    expect(parse({ intent: "variable", env: " MAX_PLAYERS ", value: " 50 " }).data).toEqual({
      intent: "variable",
      env: "MAX_PLAYERS",
      value: "50",
    });
    expect(parse({ intent: "variable", env: "MOTD", value: "  " }).data).toMatchObject({
      value: "",
    });
    expect(messages({ intent: "variable", env: "MAX PLAYERS", value: "1" })).toEqual([
      "services.server.errors.variable",
    ]);
    expect(messages({ intent: "variable", env: "A".repeat(192), value: "1" })).toEqual([
      "services.server.errors.variable",
    ]);
    expect(messages({ intent: "variable", env: "MOTD" })).toEqual([
      "services.server.errors.valueMissing",
    ]);
    expect(
      messages({ intent: "variable", env: "MOTD", value: "x".repeat(VARIABLE_VALUE_MAX + 1) }),
    ).toEqual(["services.server.errors.valueTooLong"]);
    expect(
      parse({ intent: "variable", env: "MOTD", value: "x".repeat(VARIABLE_VALUE_MAX) }).success,
    ).toBe(true);
  });

  it("reads the password's form (nothing but its intent) and the notice's switch", () => {
    expect(parse({ intent: "password", password: "ignored" }).data).toEqual({
      intent: "password",
    });
    expect(parse({ intent: "notice", notice: "on" }).data).toEqual({
      intent: "notice",
      notice: true,
    });
    expect(parse({ intent: "notice", notice: "off" }).data).toEqual({
      intent: "notice",
      notice: false,
    });
    expect(messages({ intent: "notice", notice: "maybe" })).toEqual([
      "services.server.errors.notice",
    ]);
  });

  it("turns a form into what requestServerAction is asked", () => {
    const request = (fields: Record<string, string>) =>
      serverActionRequestOf(serverControlSchema.parse(fields));
    expect(request({ intent: "power", signal: "kill" })).toEqual({ kind: "power", signal: "kill" });
    expect(request({ intent: "reinstall", confirm: "on" })).toEqual({ kind: "reinstall" });
    expect(request({ intent: "variable", env: "MOTD", value: "Hi" })).toEqual({
      kind: "variable",
      env: "MOTD",
      value: "Hi",
    });
    expect(request({ intent: "password" })).toBeNull();
    expect(request({ intent: "notice", notice: "on" })).toBeNull();
  });
});
