import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Permission } from "~/domain/staff/permissions";
import type { PostAccess } from "~/http/route-request.server";

/**
 * The permission each intent of each staff form needs, written out here (route → intent → permission;
 * null: any member of the staff). A check compares it with what the route modules' `access` says
 * (adminAction's, adminForm's, a list editor's), so a route that changes what it asks without this
 * table fails; the staff's refusals are then tried against it, every intent for every role without its
 * permission.
 */
export const INTENT_PERMISSIONS: Record<string, Record<string, Permission | null>> = {
  "/admin/orders": { approve: "orders.decide", reject: "orders.decide" },
  "/admin/services": {
    add: "services.manage",
    edit: "services.manage",
    suspend: "services.manage",
    reactivate: "services.manage",
    terminate: "services.manage",
    delete: "services.manage",
  },
  "/admin/services/:id/panel": {
    retry: "panel.manage",
    reinstall: "panel.manage",
    relink: "panel.manage",
    power: "panel.manage",
    variable: "panel.manage",
    password: "panel.manage",
  },
  "/admin/settings/game-panel": {
    save: "panel.manage",
    check: "panel.manage",
    removeClientKey: "panel.manage",
    network: "panel.manage",
  },
  "/admin/clients": {
    coins: "coins.adjust",
    update: "clients.edit",
    delete: "clients.edit",
    "complete-deletion": "clients.edit",
  },
  "/admin/users": {
    coins: "coins.adjust",
    update: "clients.edit",
    delete: "clients.edit",
    "complete-deletion": "clients.edit",
  },
  "/admin/clients/:id": { note: "clients.view", "reset-two-factor": "clients.edit" },
  "/admin/tickets/:id": {
    reply: "tickets.reply",
    insertCanned: "tickets.reply",
    status: "tickets.reply",
    priority: "tickets.reply",
    coins: "coins.adjust",
  },
  "/admin/affiliates": {
    settings: "affiliates.manage",
    pay: "affiliates.manage",
    reject: "affiliates.manage",
  },
  "/admin/email-marketing": { save: "campaigns.manage" },
  "/admin/email-marketing/:id": {
    save: "campaigns.manage",
    test: "campaigns.manage",
    send: "campaigns.manage",
  },
  "/admin/tickets/replies": {
    create: "tickets.reply",
    update: "tickets.reply",
    up: "tickets.reply",
    down: "tickets.reply",
    delete: "tickets.reply",
  },
  "/admin/knowledgebase": {
    "category-create": "knowledgebase.manage",
    "category-update": "knowledgebase.manage",
    "category-delete": "knowledgebase.manage",
    "article-create": "knowledgebase.manage",
    "article-update": "knowledgebase.manage",
    "article-delete": "knowledgebase.manage",
  },
  "/admin/announcements": {
    create: "announcements.manage",
    update: "announcements.manage",
    activate: "announcements.manage",
    deactivate: "announcements.manage",
    delete: "announcements.manage",
  },
  "/admin/products": {
    create: "products.manage",
    update: "products.manage",
    move: "products.manage",
    hide: "products.manage",
    show: "products.manage",
    delete: "products.manage",
  },
  "/admin/promotions": {
    create: "products.manage",
    update: "products.manage",
    deactivate: "products.manage",
    activate: "products.manage",
  },
  "/admin/gateways": {
    create: "gateways.manage",
    update: "gateways.manage",
    enable: "gateways.manage",
    disable: "gateways.manage",
    delete: "gateways.manage",
    "provider-paypal": "gateways.manage",
    "provider-youcanpay": "gateways.manage",
  },
  "/admin/top-ups": {
    approve: "topups.decide",
    reject: "topups.decide",
    refund: "invoices.refund",
  },
  "/admin/refunds": { approve: "invoices.refund", reject: "invoices.refund" },
  "/admin/staff": { add: "staff.manage", role: "staff.manage", remove: "staff.manage" },
  "/admin/clients/:id/view-as": { "view-as": "clients.viewAs" },
  "/admin/settings/discord": { role: "settings.manage" },
  "/admin/security": {
    "revoke-session": "settings.manage",
    "revoke-others": "settings.manage",
    "lift-block": "settings.manage",
  },
  // The member's own two-factor sign-in: every member's.
  "/admin/account": {
    "two-factor-start": null,
    "two-factor-confirm": null,
    "two-factor-cancel": null,
    "two-factor-regenerate": null,
    "two-factor-disable": null,
  },
  "/admin/automation": {
    "run-now": "automation.run",
    retry: "automation.run",
    discard: "automation.run",
    "time-zone": "settings.manage",
    alerts: "settings.manage",
  },
  "/admin/settings": Object.fromEntries(
    [
      "general",
      "links",
      "maintenance",
      "locations",
      "approval",
      "theme",
      "features",
      "seo",
      "privacy",
      "lifecycle",
      "timeZone",
      "alerts",
      "gamePanel",
      "payments",
      "security",
      "verification",
      "invoicing",
      "selfService",
    ].map((intent) => [intent, "settings.manage" as const]),
  ),
  "/admin/contact-messages": {
    open: "inbox.manage",
    read: "inbox.manage",
    unread: "inbox.manage",
    delete: "inbox.manage",
  },
  "/admin/newsletter": { remove: "inbox.manage" },
  // The member's own notifications and staff mail: every member's.
  "/admin/notifications": { "read-all": null, "staff-mail": null },
  // A document's refund, on the customer's own page of it.
  "/invoices/:number": { refund: "invoices.refund" },
};

const APP = path.resolve(import.meta.dirname, "../../app");

/** The arguments of each call of `name(` in `source`, split at the call's own commas. */
function callArguments(source: string, name: string): string[][] {
  const calls: string[][] = [];
  for (const match of source.matchAll(new RegExp(`\\b${name}\\(`, "g"))) {
    const args: string[] = [];
    let depth = 0;
    let quote: string | null = null;
    let start = match.index + match[0].length;
    for (let i = start; i < source.length; i++) {
      const c = source[i]!;
      if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = null;
      } else if (c === '"' || c === "'" || c === "`") quote = c;
      else if ("([{".includes(c)) depth++;
      else if (")]}".includes(c)) {
        if (depth === 0) {
          args.push(source.slice(start, i).trim());
          break;
        }
        depth--;
      } else if (c === "," && depth === 0) {
        args.push(source.slice(start, i).trim());
        start = i + 1;
      }
    }
    calls.push(args.filter((arg) => arg !== ""));
  }
  return calls;
}

/** An `access` argument as written: null, a permission, or an object of them by intent. */
function parseAccess(text: string, where: string): PostAccess {
  if (text === "null") return null;
  const single = /^"([\w.]+)"$/.exec(text);
  if (single) return single[1] as Permission;
  const entry = /(?:"([^"]+)"|([A-Za-z_$][\w$]*))\s*:\s*(null|"([\w.]+)")/g;
  if (!text.startsWith("{") || !text.endsWith("}"))
    throw new Error(`${where}: an access this test cannot read: ${text}`);
  const access: Record<string, Permission | null> = {};
  for (const match of text.matchAll(entry))
    access[match[1] ?? match[2]!] = match[3] === "null" ? null : (match[4] as Permission);
  const rest = text.slice(1, -1).replace(entry, "").replace(/[\s,]/g, "");
  if (rest !== "" || !("*" in access))
    throw new Error(`${where}: an access this test cannot read: ${text}`);
  return access as PostAccess;
}

/**
 * What a route module's posts ask, by the schema each is parsed with: each adminAction's and adminForm's
 * `access` as the module writes it, and for a list editor's action, the list's permission in
 * app/http/list-editor.server.ts.
 */
export function accessBySchema(file: string): Record<string, PostAccess> {
  const source = readFileSync(path.join(APP, file), "utf8");
  const found: Record<string, PostAccess> = {};
  // adminAction(read, access, schema, refused, run); adminForm(request, url, context, schema, access).
  for (const [call, schemaAt, accessAt] of [
    ["adminAction", 2, 1],
    ["adminForm", 3, 4],
  ] as const)
    for (const args of callArguments(source, call)) {
      const schema = args[schemaAt];
      if (!schema || !/^\w+$/.test(schema) || args[accessAt] === undefined) continue;
      found[schema] = parseAccess(args[accessAt], `app/${file}: ${call}(… ${schema} …)`);
    }
  const list = /\blistEditorAction\([^;]*"(\w+)"\)/.exec(source)?.[1];
  if (list) {
    const lists = readFileSync(path.join(APP, "http/list-editor.server.ts"), "utf8");
    const entry = new RegExp(
      `\\n  ${list}: \\{[\\s\\S]*?\\n    actionSchema: (\\w+),[\\s\\S]*?\\n    permission: "([\\w.]+)"`,
    ).exec(lists);
    if (!entry)
      throw new Error(`app/http/list-editor.server.ts: no "${list}" list with a permission`);
    found[entry[1]!] = entry[2] as Permission;
  }
  return found;
}

/**
 * A post of `intent` with A's real ids in every field an admin form names them by: an action whose
 * guard were missing would act on them.
 */
export function forgedForm(
  seed: { a: { id: string; pendingOrderId: number; serviceId: number } },
  intent: string,
): Record<string, string> {
  return {
    intent,
    id: "1",
    orderId: String(seed.a.pendingOrderId),
    serviceId: String(seed.a.serviceId),
    userId: seed.a.id,
    amount: "5",
    reason: "probe",
    message: "probe",
    status: "closed",
    priority: "high",
    method: "coins",
    idempotencyKey: randomUUID(),
  };
}
