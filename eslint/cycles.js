// No value import cycle: when two modules import each other's values, which one runs first depends on
// who was imported first, and a value the other reads during that first run is not there yet (a
// `const` throws, a function is undefined). A type-only import (`import type`, `export type … from`, or
// every specifier marked `type`) brings no code at run time, so it may close a loop; so may a dynamic
// `import()`, which runs after both modules have loaded.
//
// A rule of our own rather than eslint-plugin-import-x's `no-cycle`: that one doubled the time of
// `npm run lint` and counted `export type { … } from` as a value import. This one reads each module's
// top-level imports once per process with TypeScript's parser (no type checking), resolves the `~/`
// alias and relative paths the way tsconfig.json does, and walks the graph from the file being linted.
// Plain JavaScript so that eslint.config.js can load it as is.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** Where a value cycle is refused. */
export const cycleFiles = ["app/**/*.{ts,tsx}", "server/**/*.{ts,tsx}", "scripts/**/*.{ts,tsx}"];

const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];

/** The module a specifier names, or null when it is a package or not one of our TypeScript files. */
function resolveSpecifier(specifier, fromFile, aliases) {
  const bare = specifier.replace(/\?.*$/, "");
  let base = null;
  for (const [prefix, folder] of aliases) {
    if (bare.startsWith(prefix)) base = path.join(folder, bare.slice(prefix.length));
  }
  if (base === null && bare.startsWith(".")) base = path.resolve(path.dirname(fromFile), bare);
  if (base === null) return null;
  const candidates = /\.tsx?$/.test(base)
    ? [base]
    : [base.replace(/\.js$/, ".ts"), ...EXTENSIONS.map((extension) => base + extension)];
  for (const candidate of candidates) {
    const stat = statSync(candidate, { throwIfNoEntry: false });
    if (stat?.isFile()) return candidate;
  }
  return null;
}

/** Whether an import or export of TypeScript's tree brings only types (nothing at run time). */
function typeOnlyTs(statement) {
  if (ts.isImportDeclaration(statement)) {
    const clause = statement.importClause;
    if (!clause) return false; // `import "./x"` runs the module
    if (clause.isTypeOnly) return true;
    const bindings = clause.namedBindings;
    return (
      !clause.name &&
      bindings !== undefined &&
      ts.isNamedImports(bindings) &&
      bindings.elements.length > 0 &&
      bindings.elements.every((element) => element.isTypeOnly)
    );
  }
  if (statement.isTypeOnly) return true;
  const clause = statement.exportClause;
  return (
    clause !== undefined &&
    ts.isNamedExports(clause) &&
    clause.elements.length > 0 &&
    clause.elements.every((element) => element.isTypeOnly)
  );
}

/** The same question on ESLint's tree of the file being linted (typescript-eslint's ESTree). */
function typeOnlyEstree(node) {
  if (node.importKind === "type" || node.exportKind === "type") return true;
  const specifiers = node.specifiers ?? [];
  if (node.type === "ExportAllDeclaration" || specifiers.length === 0) return false;
  return specifiers.every(
    (specifier) =>
      (specifier.type === "ImportSpecifier" && specifier.importKind === "type") ||
      (specifier.type === "ExportSpecifier" && specifier.exportKind === "type"),
  );
}

/** The modules a module on disk imports for their values, read once per change of the file. */
const moduleCache = new Map();
function valueImportsOnDisk(file, aliases) {
  const mtime = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
  const cached = moduleCache.get(file);
  if (cached && cached.mtime === mtime && cached.aliases === aliases) return cached.imported;
  const imported = [];
  if (mtime !== undefined) {
    const source = ts.createSourceFile(
      file,
      readFileSync(file, "utf8"),
      ts.ScriptTarget.Latest,
      false,
      file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier) || typeOnlyTs(statement)) continue;
      const target = resolveSpecifier(specifier.text, file, aliases);
      if (target !== null) imported.push(target);
    }
  }
  moduleCache.set(file, { mtime, aliases, imported });
  return imported;
}

/** The shortest chain of value imports from `start` back to `target`, or null; `dead` gathers dead ends. */
function chainBack(start, target, aliases, dead) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const next of valueImportsOnDisk(file, aliases)) {
      if (next === target) {
        const chain = [file];
        for (let step = cameFrom.get(file); step !== null; step = cameFrom.get(step)) {
          chain.unshift(step);
        }
        return chain;
      }
      if (cameFrom.has(next) || dead.has(next)) continue;
      cameFrom.set(next, file);
      queue.push(next);
    }
  }
  for (const file of cameFrom.keys()) dead.add(file);
  return null;
}

/** The aliases as [prefix, absolute folder] pairs: one array per root and option, so that the cache can tell. */
const aliasCache = new Map();
function aliasesFor(root, option) {
  const key = JSON.stringify([root, option]);
  if (!aliasCache.has(key)) {
    const pairs = Object.entries(option).map(([prefix, folder]) => [
      prefix,
      path.resolve(root, folder),
    ]);
    aliasCache.set(key, pairs);
  }
  return aliasCache.get(key);
}

export const noValueCycleRule = {
  meta: {
    type: "problem",
    docs: { description: "Refuses an import of values that leads back to the importing module." },
    schema: [
      {
        type: "object",
        properties: { aliases: { type: "object", additionalProperties: { type: "string" } } },
        additionalProperties: false,
      },
    ],
    messages: {
      cycle:
        "Value import cycle: {{chain}}. Import only types across it (`import type`), or move what both need into a module of its own.",
    },
  },
  create(context) {
    const file = context.physicalFilename;
    const root = context.cwd;
    // `~/` → app/ as in tsconfig.json's paths; a folder is relative to the working directory.
    const aliases = aliasesFor(root, context.options[0]?.aliases ?? {});
    const dead = new Set();
    const check = (node) => {
      if (!node.source || typeof node.source.value !== "string" || typeOnlyEstree(node)) return;
      const imported = resolveSpecifier(node.source.value, file, aliases);
      if (imported === null || imported === file) return;
      const chain = chainBack(imported, file, aliases, dead);
      if (chain === null) return;
      const name = (step) => path.relative(root, step);
      context.report({
        node,
        messageId: "cycle",
        data: { chain: [file, ...chain, file].map(name).join(" → ") },
      });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
    };
  },
};

/** The flat-config block that refuses them. */
export function importCycleBlock() {
  return {
    name: "no value import cycle",
    files: cycleFiles,
    plugins: { cycles: { rules: { "no-value-cycle": noValueCycleRule } } },
    rules: { "cycles/no-value-cycle": ["error", { aliases: { "~/": "app/" } }] },
  };
}
