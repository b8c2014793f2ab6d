// What follows a change (its audit row, the customer's notice and mail, the staff's post) is written by
// the domain events' reactions (app/domain/events/, docs/decisions/0054-domain-events.md), never by a
// use-case's own hand: a webhook, an API call and an admin's click that make the same change then get the
// same tail. So the modules that write to those sinks may be imported only from app/domain/events/, from
// their own area, and from another sink's writer (the staff's post writes each admin's notice). Plain JavaScript so that eslint.config.js can load it as is.
import path from "node:path";

/**
 * The sinks' writers: the module (from the repository's root, without its extension) and the folder that
 * owns it (its own files may use it).
 */
export const sinkWriters = [
  { module: "app/domain/audit/audit.server", area: "app/domain/audit/", label: "the audit log" },
  {
    module: "app/domain/notifications/notifications.server",
    area: "app/domain/notifications/",
    label: "the notifications",
  },
  { module: "app/domain/mail/mail.server", area: "app/domain/mail/", label: "the outbox" },
  { module: "app/domain/mail/mail-erasure.server", area: "app/domain/mail/", label: "the outbox" },
  {
    module: "app/domain/jobs/staff-posts.server",
    area: "app/domain/jobs/",
    label: "the staff's posts",
  },
];

/** Where the reactions live: the one place outside a sink's area that may write to it. */
export const reactionsFolder = "app/domain/events/";

/** The files checked: our code, not its tests (a test may seed a row through a sink). */
export const sinkFiles = ["app/**/*.{ts,tsx}", "server/**/*.{ts,tsx}"];
export const sinkIgnores = ["**/*.test.ts", "**/*.test.tsx", "app/domain/events/**"];

/** `source` as imported from `file` (both from the root), without its extension; null if not ours. */
export function resolveImport(file, source) {
  let target;
  if (source.startsWith("~/")) target = path.posix.join("app", source.slice(2));
  else if (source.startsWith(".")) target = path.posix.join(path.posix.dirname(file), source);
  else return null;
  return target.replace(/\?.*$/, "").replace(/\.(?:tsx?|jsx?)$/, "");
}

const rule = {
  meta: {
    type: "problem",
    docs: {
      description:
        "Only the domain events' reactions write to the audit, notices, mail and staff posts",
    },
    schema: [],
    messages: {
      sink: "Only the domain events' reactions write to {{label}}: record an event (`record(trx, event)`, app/domain/events/) instead of importing {{module}} (docs/decisions/0054-domain-events.md).",
    },
  },
  create(context) {
    const file = path.relative(context.cwd, context.filename).split(path.sep).join("/");
    const self = file.replace(/\.(?:tsx?|jsx?)$/, "");
    if (file.startsWith(reactionsFolder) || sinkWriters.some((s) => s.module === self)) return {};
    const check = (node) => {
      const source = node.source && node.source.value;
      if (typeof source !== "string") return;
      const target = resolveImport(file, source);
      const sink = target && sinkWriters.find((s) => s.module === target);
      if (!sink || file.startsWith(sink.area)) return;
      context.report({ node, messageId: "sink", data: { label: sink.label, module: source } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

/** The flat-config block that refuses a sink's writer outside the reactions and its own area. */
export function sinksBlock() {
  return {
    name: "only the reactions write to the sinks",
    files: sinkFiles,
    ignores: sinkIgnores,
    plugins: { hostfront: { rules: { "sink-writers": rule } } },
    rules: { "hostfront/sink-writers": "error" },
  };
}
