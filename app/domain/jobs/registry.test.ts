import { globSync, readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { installedProviders } from "~/domain/payments/online-providers.server";
import { jobHandlers, SCHEDULES, type JobWiring } from "./registry.server";

// The registry lists every job type once: a type the code can queue with no handler would wait and die
// with "No handler", and a type listed twice would have one of its handlers silently replaced. The job
// types the code can queue are read from its source: each `type` given to enqueueJob or enqueueJobs
// (a string, or a constant of one), each `*_JOB` constant, and each schedule's job type.

/** Everything the handlers that reach the outside world are wired with; nothing of it is called here. */
const WIRED: JobWiring = {
  discord: { write: async () => null, send: async () => new Response(null, { status: 204 }) },
  mail: {
    write: async () => ({ subject: "", html: "", text: "" }),
    transport: null,
    from: "a@b.c",
  },
  panel: { secret: "s".repeat(32), timeoutMs: 1, pollMs: 1, installTimeoutMs: 1 },
  payments: { secret: "s".repeat(32), providers: installedProviders() },
  dataExports: {
    secret: "s".repeat(32),
    texts: async () => {
      throw new Error("not called here");
    },
  },
  discordRoles: { secret: "s".repeat(32), baseUrl: "https://discord.com" },
};

/** Our code that may queue a job or name a job type (read as text first: parsing all of it is slow). */
const SOURCES = globSync(["app/**/*.ts", "server/**/*.ts"], {
  exclude: ["**/*.test.ts", "**/*.d.ts", "**/+types/**"],
})
  .map((path) => ({ path, text: readFileSync(path, "utf8") }))
  .filter(({ text }) => /\benqueueJobs?\(|_JOBS?\b/.test(text));

interface Queued {
  file: string;
  /** The job type, or the expression that gives it when it cannot be read (what the test reports). */
  type: string | null;
  text: string;
}

/** A call Stryker's instrumentation adds (`stryMutAct_…("1")`, `stryCov_…("1")`). */
const isMutationProbe = (node: ts.Expression) =>
  ts.isCallExpression(node) &&
  ts.isIdentifier(node.expression) &&
  /^stry(?:MutAct|Cov)_/.test(node.expression.text);

/**
 * The expression as written: in the mutation check's sandbox the sources are instrumented
 * (`stryMutAct_x("1") ? mutant : (stryCov_x("1"), "mail.send")`), and what was written is the last
 * branch; elsewhere the expression itself, its `as` and `satisfies` taken off.
 */
function asWritten(node: ts.Expression): ts.Expression {
  if (
    ts.isParenthesizedExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSatisfiesExpression(node)
  )
    return asWritten(node.expression);
  if (ts.isConditionalExpression(node) && isMutationProbe(node.condition))
    return asWritten(node.whenFalse);
  if (
    ts.isBinaryExpression(node) &&
    node.operatorToken.kind === ts.SyntaxKind.CommaToken &&
    isMutationProbe(node.left)
  )
    return asWritten(node.right);
  return node;
}

/** The string constants of our code (`const X = "…"`, and `X.y` of `const X = { y: "…" }`), by name. */
function stringConstants(files: ts.SourceFile[]): Map<string, Set<string>> {
  const constants = new Map<string, Set<string>>();
  const add = (name: string, value: string) =>
    constants.set(name, (constants.get(name) ?? new Set()).add(value));
  for (const file of files)
    for (const statement of file.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
        const value = asWritten(declaration.initializer);
        if (ts.isStringLiteralLike(value)) add(declaration.name.text, value.text);
        if (ts.isObjectLiteralExpression(value))
          for (const property of value.properties)
            if (
              ts.isPropertyAssignment(property) &&
              ts.isIdentifier(property.name) &&
              ts.isStringLiteralLike(asWritten(property.initializer))
            )
              add(
                `${declaration.name.text}.${property.name.text}`,
                (asWritten(property.initializer) as ts.StringLiteralLike).text,
              );
      }
    }
  return constants;
}

/** The `type` of each job an enqueueJob or enqueueJobs call in `file` queues (never a payload's own). */
function queuedTypes(file: ts.SourceFile, constants: Map<string, Set<string>>): Queued[] {
  const found: Queued[] = [];
  const typesIn = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node) && node.name.getText(file) === "payload") return;
    if (ts.isPropertyAssignment(node) && node.name.getText(file) === "type") {
      const initializer = asWritten(node.initializer);
      const text = initializer.getText(file);
      const values = ts.isStringLiteralLike(initializer)
        ? new Set([initializer.text])
        : constants.get(text);
      found.push({ file: file.fileName, type: values?.size === 1 ? [...values][0]! : null, text });
      return;
    }
    ts.forEachChild(node, typesIn);
  };
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      /^(enqueueJob|enqueueJobs)$/.test(node.expression.getText(file).replace(/^.*\./, ""))
    )
      node.arguments.slice(1).forEach(typesIn);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function parsed(): ts.SourceFile[] {
  return SOURCES.map(({ path, text }) =>
    ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true),
  );
}

describe("the job registry", () => {
  it("lists each job type once, whatever it is wired with", () => {
    // jobHandlers refuses a type that two parts list.
    expect(() => jobHandlers(WIRED)).not.toThrow();
    expect(() => jobHandlers()).not.toThrow();
  });

  it("reads a source instrumented by the mutation check as it was written", () => {
    const source = ts.createSourceFile(
      "x.ts",
      `const A_JOB = stryMutAct_9fa48("1") ? "" : (stryCov_9fa48("1"), "a.job");
       enqueueJob(trx, stryMutAct_9fa48("2") ? {} : (stryCov_9fa48("2"), {
         type: stryMutAct_9fa48("3") ? "" : (stryCov_9fa48("3"), "b.job"),
       }));
       enqueueJob(trx, { type: A_JOB });`,
      ts.ScriptTarget.Latest,
      true,
    );
    const constants = stringConstants([source]);
    expect(constants.get("A_JOB")).toEqual(new Set(["a.job"]));
    expect(queuedTypes(source, constants).map((each) => each.type)).toEqual(["b.job", "a.job"]);
  });

  it("has a handler for every job type the code can queue, and for every schedule", () => {
    const files = parsed();
    const constants = stringConstants(files);
    const queued = files.flatMap((file) => queuedTypes(file, constants));
    // The schedules' runs are queued with their own job type (enqueueScheduleRun), checked below.
    const unread = queued.filter((each) => each.type === null && !/\.jobType$/.test(each.text));
    expect(unread, "a job type that is neither a string nor one constant's").toEqual([]);
    // Found where they are: a reader that finds none would pass whatever the registry holds.
    expect(queued.length).toBeGreaterThan(10);

    const declared = [...constants]
      .filter(([name]) => /_JOB$/.test(name))
      .flatMap(([, values]) => [...values]);
    const types = new Set([
      ...queued.flatMap((each) => (each.type === null ? [] : [each.type])),
      ...declared,
      ...SCHEDULES.map((schedule) => schedule.jobType),
    ]);
    const handlers = jobHandlers(WIRED);
    expect([...types].filter((type) => !handlers[type]).sort()).toEqual([]);
    expect(Object.keys(handlers).sort()).toEqual([...types].sort());
  });
});
