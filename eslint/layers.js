/**
 * What each folder may import: the one list behind the import rules of eslint.config.js and the "may
 * import" column of the table in docs/architecture.md (eslint/layers.test.ts compares the two).
 *
 * Anything of ours a row does not list is refused, type-only imports included, unless the row says
 * "types only". A folder may always import its own files (a feature only its own). Packages are free
 * unless a row lists them under `never`. Tests (`*.test.ts(x)`, tests/) are not checked.
 */

const PREFIX = String.raw`^(?:~/|(?:\.\.?/)+(?:app/)?)`;
const RELATIVE = String.raw`^(?:\.\.?/)+`;
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Our folders and files, each with how an import of it is spelled (the `~/` alias or a relative path). */
const appFolder = (name, rest = "") => ({
  label: `\`app/${name}/\``,
  regex: `${PREFIX}${escape(name)}/${rest}`,
  app: true,
});
const appFile = (name) => ({
  label: `\`app/${name}\``,
  // The extension is optional, and a Vite query (`?worker&url`) may follow.
  regex: `${PREFIX}${escape(name.replace(/\.tsx?$/, ""))}(?:\\.tsx?)?(?:\\?.*)?$`,
  app: true,
});
const repoFolder = (name) => ({ label: `\`${name}/\``, regex: `${RELATIVE}${escape(name)}/` });

export const targets = {
  routes: appFolder("routes"),
  http: appFolder("http"),
  domain: appFolder("domain"),
  // db/migrations (outside app/) has a name of its own below.
  db: appFolder("db", "(?!migrations/)"),
  features: appFolder("features"),
  components: appFolder("components"),
  i18n: appFolder("i18n"),
  lib: appFolder("lib"),
  config: appFolder("config"),
  "legacy-import": appFolder("legacy-import"),
  "context.server": appFile("context.server.ts"),
  root: appFile("root.tsx"),
  "entry.client": appFile("entry.client.tsx"),
  "entry.server": appFile("entry.server.tsx"),
  "entry.enhance": appFile("entry.enhance.ts"),
  "routes.ts": appFile("routes.ts"),
  server: repoFolder("server"),
  migrations: repoFolder("db/migrations"),
  scripts: repoFolder("scripts"),
  tests: repoFolder("tests"),
};

/** What a row may refuse besides our own code. */
export const never = {
  serverOnly: { label: "`*.server.ts`", regex: String.raw`\.server(?:\.tsx?)?(?:\?.*)?$` },
  kysely: { label: "kysely", regex: "^kysely(?:/|$)" },
  node: { label: "`node:*`", regex: "^node:" },
  // A feature has no sub-folders, so a path that climbs one level out of it reaches another feature.
  otherFeature: { label: "another feature", regex: String.raw`^\.\./(?!\.)` },
  // What runs in the browser never validates with zod: a schema, zod or one of our zod helpers
  // would bring all of zod to the page. A type import brings no code, so these two let types through.
  schemas: {
    label: "`*.schemas.ts`",
    regex: String.raw`\.schemas(?:\.tsx?)?$`,
    allowTypes: true,
  },
  zod: {
    // The package, and app/lib's helpers made of it.
    label: "zod",
    regex: String.raw`^zod(?:/|$)|(?:^~/|/)lib/(?:zod|query-params|id-field|save-actions)(?:\.ts)?$`,
    allowTypes: true,
  },
};

const allApp = Object.keys(targets).filter((name) => targets[name].app);
const typesOnly = (target) => ({ target, typesOnly: true });

/**
 * One row per line of the table. `files`/`ignores` are ESLint globs (rows never share a file: a second
 * block for a file would replace the first one's patterns); `layer` is the row's own folder; `may` the
 * targets it may import (`"app"`: all of app/ but what `except` names).
 */
export const layers = [
  {
    folder: "`server/`",
    files: ["server/**/*.{ts,tsx}"],
    layer: "server",
    may: ["app"],
    except: ["legacy-import"],
  },
  {
    folder: "`app/routes/`",
    files: ["app/routes/**/*.{ts,tsx}"],
    layer: "routes",
    may: ["domain", "features", "components", "http", "lib", "i18n", "root", "context.server"],
    never: ["kysely"],
  },
  {
    folder: "`app/routes.ts`",
    files: ["app/routes.ts"],
    layer: "routes.ts",
    may: ["components"],
  },
  {
    folder: "`app/root.tsx`",
    files: ["app/root.tsx"],
    layer: "root",
    may: ["components", "domain", "http", "lib", "i18n", "context.server"],
  },
  {
    folder: "`app/entry.server.tsx`",
    files: ["app/entry.server.tsx"],
    layer: "entry.server",
    may: ["components", "lib", "i18n", "entry.enhance", "context.server"],
  },
  {
    folder: "`app/entry.client.tsx`",
    files: ["app/entry.client.tsx"],
    layer: "entry.client",
    may: ["i18n", "lib"],
    never: ["serverOnly", "schemas", "zod"],
  },
  {
    folder: "`app/entry.enhance.ts`",
    files: ["app/entry.enhance.ts"],
    layer: "entry.enhance",
    may: ["components", "features", "lib"],
    never: ["serverOnly", "schemas", "zod"],
  },
  {
    folder: "`app/context.server.ts`",
    files: ["app/context.server.ts"],
    layer: "context.server",
    may: ["config", "db", "domain", "i18n", "lib"],
  },
  {
    folder: "`app/http/`",
    files: ["app/http/**/*.{ts,tsx}"],
    layer: "http",
    may: ["domain", "lib", "i18n", typesOnly("context.server")],
  },
  {
    folder: "`app/domain/<area>/<area>.ts`",
    files: ["app/domain/**/*.{ts,tsx}"],
    ignores: ["app/domain/**/*.server.ts", "app/domain/**/*.schemas.ts"],
    layer: "domain",
    may: ["lib"],
    never: ["serverOnly", "kysely", "node", "schemas", "zod"],
  },
  {
    folder: "`app/domain/*/*.schemas.ts`",
    files: ["app/domain/**/*.schemas.ts"],
    layer: "domain",
    may: ["lib"],
    never: ["serverOnly", "kysely", "node"],
  },
  {
    folder: "`app/domain/<area>/*.server.ts`",
    files: ["app/domain/**/*.server.ts"],
    layer: "domain",
    may: ["db", "lib"],
  },
  {
    folder: "`app/db/`",
    files: ["app/db/**/*.{ts,tsx}"],
    layer: "db",
    may: ["migrations"],
  },
  {
    folder: "`app/legacy-import/`",
    files: ["app/legacy-import/**/*.{ts,tsx}"],
    layer: "legacy-import",
    may: ["db", "domain", "lib"],
  },
  {
    folder: "`app/features/<area>/`",
    files: ["app/features/**/*.{ts,tsx}"],
    layer: "features",
    isolated: true,
    may: ["components", "lib", "i18n", "domain"],
    never: ["otherFeature", "serverOnly", "schemas", "zod"],
  },
  {
    folder: "`app/components/layout/`",
    files: ["app/components/layout/**/*.{ts,tsx}"],
    layer: "components",
    may: ["lib", "i18n", "domain"],
    never: ["serverOnly", "schemas", "zod"],
  },
  {
    folder: "`app/components/`",
    files: ["app/components/**/*.{ts,tsx}"],
    ignores: ["app/components/layout/**"],
    layer: "components",
    may: ["lib", "i18n", typesOnly("domain")],
    never: ["serverOnly", "schemas", "zod"],
  },
  {
    folder: "`app/i18n/`",
    files: ["app/i18n/**/*.{ts,tsx}"],
    layer: "i18n",
    may: ["lib"],
  },
  {
    folder: "`app/lib/`",
    files: ["app/lib/**/*.{ts,tsx}"],
    ignores: ["app/lib/**/*.server.ts"],
    layer: "lib",
    may: [],
  },
  {
    folder: "`app/lib/*.server.ts`",
    files: ["app/lib/**/*.server.ts"],
    layer: "lib",
    may: ["config"],
  },
  {
    folder: "`app/config/`",
    files: ["app/config/**/*.{ts,tsx}"],
    layer: "config",
    may: ["lib"],
  },
  {
    folder: "`db/migrations/`",
    files: ["db/migrations/**/*.{ts,tsx}"],
    layer: "migrations",
    may: [],
  },
  { folder: "`scripts/`", files: [], layer: "scripts", may: "anything" },
  { folder: "`tests/`", files: [], layer: "tests", may: "anything" },
];

export const testFiles = ["**/*.test.ts", "**/*.test.tsx", "tests/**"];

const entryName = (entry) => (typeof entry === "string" ? entry : entry.target);

/** The names of the targets a row may import ("app" spelled out). */
function allowed(row) {
  if (row.may === "anything") return Object.keys(targets);
  const names = row.may.flatMap((entry) =>
    entry === "app" ? allApp.filter((name) => !row.except?.includes(name)) : [entryName(entry)],
  );
  return row.isolated ? names : [...names, row.layer];
}

/** The "may import" cell of the row's line in docs/architecture.md. */
export function mayImportText(row) {
  if (row.may === "anything") return "anything";
  const may = row.may.map((entry) => {
    if (entry === "app") {
      const except = (row.except ?? []).map((name) => targets[name].label);
      return except.length ? "`app/` but " + except.join(", ") : "`app/`";
    }
    const label = targets[entryName(entry)].label;
    return typeof entry === "string" ? label : `${label} (types only)`;
  });
  const text = may.length ? may.join(", ") : "nothing of ours";
  const refused = (row.never ?? []).map((name) => never[name].label);
  return refused.length ? `${text}; **never** ${refused.join(", ")}` : text;
}

function restrictedPatterns(row) {
  const may = allowed(row);
  const reason = `${row.folder} may import ${mayImportText(row).replaceAll("**", "")} (docs/architecture.md).`;
  const typeOnly = new Set(
    (Array.isArray(row.may) ? row.may : []).filter((e) => typeof e !== "string").map(entryName),
  );
  const refused = Object.entries(targets)
    .filter(([name]) => !may.includes(name) || typeOnly.has(name))
    .map(([name, target]) => ({
      regex: target.regex,
      caseSensitive: true,
      ...(typeOnly.has(name) ? { allowTypeImports: true } : {}),
      message: `Not ${target.label}${typeOnly.has(name) ? " except as types" : ""}: ${reason}`,
    }));
  const extra = (row.never ?? []).map((name) => ({
    regex: never[name].regex,
    caseSensitive: true,
    ...(never[name].allowTypes ? { allowTypeImports: true } : {}),
    message: `Never ${never[name].label}: ${reason}`,
  }));
  return [...refused, ...extra];
}

/**
 * What app/ takes from the kit rather than from a package: React Router's links, which the kit's
 * `~/components/ui/link` writes on the server without resolving their path.
 */
export const kitOnly = [
  {
    name: "react-router",
    importNames: ["Link", "NavLink"],
    message: 'Links come from the kit: import { Link, NavLink } from "~/components/ui/link".',
  },
];

/** One ESLint block per row of the table. */
export function layerBlocks() {
  return layers
    .filter((row) => row.may !== "anything")
    .map((row) => ({
      name: `layers: ${row.folder.replaceAll("`", "")}`,
      files: row.files,
      ignores: [...(row.ignores ?? []), ...testFiles],
      rules: {
        "@typescript-eslint/no-restricted-imports": [
          "error",
          {
            paths: row.files.some((glob) => glob.startsWith("app/")) ? kitOnly : [],
            patterns: restrictedPatterns(row),
          },
        ],
      },
    }));
}
