import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { resolveImport, sinkWriters } from "./sinks.js";

const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, "eslint.config.js") });

/** Whether the sink rule refuses `code` written in `filePath`. */
async function refused(filePath: string, code: string) {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, {
    filePath: path.join(root, filePath),
  });
  return (result?.messages ?? []).some((message) => message.ruleId === "hostfront/sink-writers");
}

const audit = "~/domain/audit/audit.server";
const mail = "~/domain/mail/mail.server";

// [file, code, refused?]
const cases: [string, string, boolean][] = [
  // A use-case writing its own tail, however the path is spelled, value or type.
  ["app/domain/orders/orders.server.ts", `import { recordAudit } from "${audit}";`, true],
  [
    "app/domain/orders/orders.server.ts",
    `import { recordAudit } from "../audit/audit.server";`,
    true,
  ],
  ["app/domain/orders/orders.server.ts", `import type { AuditEntry } from "${audit}.ts";`, true],
  ["app/domain/orders/orders.server.ts", `export { queueMail } from "${mail}";`, true],
  ["app/routes/x.tsx", `import { recordAudit } from "${audit}";`, true],
  ["server/x.ts", `import { recordAudit } from "../app/domain/audit/audit.server";`, true],
  // The reactions, the sink's own area, a test, and the sinks' readers stay free.
  ["app/domain/events/x-events.server.ts", `import { recordAudit } from "${audit}";`, false],
  ["app/domain/audit/audit-log.server.ts", `import { recordAudit } from "./audit.server";`, false],
  [
    "app/domain/orders/orders.integration.test.ts",
    `import { recordAudit } from "${audit}";`,
    false,
  ],
  [
    "app/domain/orders/orders.server.ts",
    `import { listAuditLog } from "~/domain/audit/audit-log.server";`,
    false,
  ],
  // A sink's writer may write through another (the staff's post writes each admin's notice), no one else.
  [
    "app/domain/jobs/staff-posts.server.ts",
    `import { notifyStaff } from "~/domain/notifications/notifications.server";`,
    false,
  ],
  [
    "app/domain/jobs/alerts.server.ts",
    `import { notifyStaff } from "~/domain/notifications/notifications.server";`,
    true,
  ],
];

describe("only the domain events' reactions write to the sinks", () => {
  it.each(cases)("in %s: %s (refused: %s)", async (file, code, expected) => {
    expect(await refused(file, code)).toBe(expected);
  });

  it("names modules that exist", async () => {
    const { existsSync } = await import("node:fs");
    for (const sink of sinkWriters)
      expect(existsSync(path.join(root, `${sink.module}.ts`))).toBe(true);
  });

  it("resolves the alias and relative paths to the same module", () => {
    expect(resolveImport("app/domain/a/b.ts", "~/domain/mail/mail.server")).toBe(
      "app/domain/mail/mail.server",
    );
    expect(resolveImport("app/domain/a/b.ts", "../mail/mail.server.ts")).toBe(
      "app/domain/mail/mail.server",
    );
    expect(resolveImport("app/domain/a/b.ts", "react")).toBeNull();
  });
});
