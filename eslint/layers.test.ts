import { readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";
import { layerBlocks, layers, mayImportText } from "./layers.js";

const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, "eslint.config.js") });
const RULE = "@typescript-eslint/no-restricted-imports";

/** The import rule's messages for `code` written in `filePath`. */
async function refusals(filePath: string, code: string) {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).filter((message) => message.ruleId === RULE);
}

// [file, import, refused?]: a wrong import for (nearly) every row, and imports the table allows.
const cases: [string, string, boolean][] = [
  ["app/components/ui/x.tsx", `import { liveChatLinks } from "~/domain/settings/settings";`, true],
  [
    "app/components/ui/x.tsx",
    `import type { PublicSettings } from "~/domain/settings/settings";`,
    false,
  ],
  ["app/components/ui/x.tsx", `import url from "~/entry.enhance.ts?worker&url";`, true],
  ["app/components/ui/x.tsx", `import { cn } from "~/lib/utils";`, false],
  // Links come from the kit (app/components/ui/link.tsx), anywhere in app/ but tests.
  ["app/features/orders/x.tsx", `import { Form, Link } from "react-router";`, true],
  ["app/components/layout/x.tsx", `import { NavLink } from "react-router";`, true],
  ["app/routes/x.tsx", `import { Link } from "react-router";`, true],
  ["app/features/orders/x.tsx", `import { Form, type LinkProps } from "react-router";`, false],
  ["app/features/orders/x.tsx", `import { Link } from "~/components/ui/link";`, false],
  ["app/features/orders/x.test.tsx", `import { Link } from "react-router";`, false],
  [
    "app/components/layout/x.tsx",
    `import { liveChatLinks } from "~/domain/settings/settings";`,
    false,
  ],
  [
    "app/components/layout/x.tsx",
    `import { getSettings } from "~/domain/settings/settings.server";`,
    true,
  ],
  ["app/components/layout/x.tsx", `import { Button } from "../ui/button";`, false],
  ["app/lib/x.ts", `import type { RootData } from "~/root";`, true],
  ["app/lib/x.ts", `import type { RootData } from "../root";`, true],
  ["app/lib/x.test.ts", `import type { RootData } from "~/root";`, false],
  ["app/lib/logger.server.ts", `import { getEnv } from "~/config/env.server";`, false],
  [
    "app/i18n/x.ts",
    `import { NOTIFICATION_LABELS } from "~/domain/notifications/notifications";`,
    true,
  ],
  ["app/i18n/x.ts", `import { readCookie } from "~/lib/cookies";`, false],
  ["app/routes/x.tsx", `import { sql } from "kysely";`, true],
  ["app/routes/admin/x.tsx", `import type { Database } from "../../db/schema";`, true],
  ["app/routes/x.tsx", `import { requireUser } from "~/http/guards.server";`, false],
  ["app/features/orders/x.tsx", `import { TicketForm } from "../support/ticket-form";`, true],
  [
    "app/features/orders/x.tsx",
    `import { TicketForm } from "~/features/support/ticket-form";`,
    true,
  ],
  ["app/features/orders/x.tsx", `import { OrderForm } from "./order-form";`, false],
  ["app/domain/orders/orders.ts", `import { placeOrder } from "./orders.server";`, true],
  ["app/domain/orders/orders.ts", `import { randomUUID } from "node:crypto";`, true],
  ["app/domain/orders/orders.ts", `import type { Database } from "~/db/schema";`, true],
  [
    "app/domain/orders/orders.server.ts",
    `import { inTransaction } from "~/db/transaction";`,
    false,
  ],
  ["app/domain/orders/orders.server.ts", `import { parseForm } from "~/http/form.server";`, true],
  ["app/http/x.server.ts", `import type { RequestContext } from "~/context.server";`, false],
  ["app/http/x.server.ts", `import { createServices } from "~/context.server";`, true],
  ["app/db/x.ts", `import { settingsSchema } from "~/domain/settings/settings";`, true],
  // Zod stays on the server: a page's code takes no schema, no zod, no zod helper; types pass.
  [
    "app/features/orders/x.tsx",
    `import { orderFormSchema } from "~/domain/orders/orders.schemas";`,
    true,
  ],
  [
    "app/features/orders/x.tsx",
    `import type { OrderFormInput } from "~/domain/orders/orders.schemas";`,
    false,
  ],
  ["app/features/orders/x.tsx", `import { quote } from "~/domain/orders/orders";`, false],
  ["app/features/orders/x.tsx", `import { z } from "zod";`, true],
  ["app/features/orders/x.tsx", `import { pageParam } from "~/lib/query-params";`, true],
  ["app/components/layout/x.tsx", `import { z } from "~/lib/zod";`, true],
  [
    "app/components/ui/x.tsx",
    `import { settingsSchema } from "~/domain/settings/settings.schemas";`,
    true,
  ],
  ["app/entry.client.tsx", `import { MAX_ROW_ID } from "./lib/id-field";`, true],
  ["app/domain/orders/orders.ts", `import { orderFormSchema } from "./orders.schemas";`, true],
  ["app/domain/orders/orders.ts", `import type { OrderFormInput } from "./orders.schemas";`, false],
  ["app/domain/orders/orders.ts", `import { z } from "~/lib/zod";`, true],
  ["app/domain/orders/orders.schemas.ts", `import { z } from "~/lib/zod";`, false],
  [
    "app/domain/tickets/tickets.schemas.ts",
    `import { coinFormKeySchema } from "~/domain/coins/coins.schemas";`,
    false,
  ],
  ["app/domain/orders/orders.schemas.ts", `import { placeOrder } from "./orders.server";`, true],
  ["app/routes/x.tsx", `import { orderFormSchema } from "~/domain/orders/orders.schemas";`, false],
  ["app/config/x.ts", `import { logger } from "~/lib/logger.server";`, false],
  ["app/config/x.ts", `import type { Database } from "~/db/schema";`, true],
  ["app/legacy-import/x.server.ts", `import { inTransaction } from "~/db/transaction";`, false],
  ["app/legacy-import/x.server.ts", `import { parseForm } from "~/http/form.server";`, true],
  ["app/context.server.ts", `import { requireUser } from "~/http/guards.server";`, true],
  ["app/root.tsx", `import { OrderForm } from "./features/orders/order-form";`, true],
  ["app/entry.client.tsx", `import { logger } from "./lib/logger.server";`, true],
  ["app/entry.server.tsx", `import url from "./entry.enhance.ts?worker&url";`, false],
  [
    "server/x.ts",
    `import { importLegacyFile } from "../app/legacy-import/legacy-import.server";`,
    true,
  ],
  ["server/x.ts", `import { createServices } from "~/context.server";`, false],
  ["db/migrations/x.ts", `import type { Database } from "../../app/db/schema";`, true],
  [
    "scripts/x.ts",
    `import { importLegacyFile } from "../app/legacy-import/legacy-import.server";`,
    false,
  ],
];

describe("the import rules of docs/architecture.md", () => {
  // ESLint loads its config and the TypeScript parser on the first lint (seconds on a busy machine):
  // pay that once here, so that each case's time is its own lint.
  beforeAll(() => refusals(cases[0]![0], cases[0]![1]), 120_000);

  it.each(cases)("in %s: %s (refused: %s)", async (file, code, refused) => {
    const messages = await refusals(file, code);
    expect(messages.length > 0, messages.map((m) => m.message).join("\n")).toBe(refused);
  });

  it("gives every file the rules of its own row only (no block replaces another)", async () => {
    const blocks = layerBlocks();
    const samples: Record<string, string> = {
      "layers: server/": "server/app.ts",
      "layers: app/components/": "app/components/ui/button.tsx",
      "layers: app/components/layout/": "app/components/layout/site-footer.tsx",
      "layers: app/domain/<area>/<area>.ts": "app/domain/orders/orders.ts",
      "layers: app/domain/*/*.schemas.ts": "app/domain/orders/orders.schemas.ts",
      "layers: app/domain/<area>/*.server.ts": "app/domain/orders/orders.server.ts",
      "layers: app/lib/": "app/lib/money.ts",
      "layers: app/lib/*.server.ts": "app/lib/logger.server.ts",
    };
    for (const block of blocks) {
      const file = samples[block.name ?? ""] ?? block.files?.[0];
      expect(typeof file).toBe("string");
      const sample = String(file).replace("**/*.{ts,tsx}", "x.tsx").replace("**/*.ts", "x.ts");
      const config = await eslint.calculateConfigForFile(path.join(root, sample));
      // Severity aside (ESLint hands it back as a number).
      expect(config.rules?.[RULE]?.[1], `${block.name}: ${sample}`).toEqual(
        (block.rules?.[RULE] as unknown[])[1],
      );
    }
  });

  it("is the table of docs/architecture.md", () => {
    const doc = readFileSync(path.join(root, "docs/architecture.md"), "utf8");
    const section = doc.split("## Folders and what may import what")[1]?.split("\n## ")[0] ?? "";
    const rows = section
      .split("\n")
      .filter((line) => line.startsWith("|"))
      .slice(2)
      .map((line) => line.split(/(?<!\\)\|/).map((cell) => cell.trim()))
      .map((cells) => [cells[1], cells[3]]);
    expect(rows).toEqual(layers.map((row) => [row.folder, mayImportText(row)]));
  });
});
