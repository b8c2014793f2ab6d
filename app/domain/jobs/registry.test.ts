import { globSync, readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
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
        let value: ts.Expression = declaration.initializer;
        while (ts.isAsExpression(value) || ts.isSatisfiesExpression(value))
          value = value.expression;
        if (ts.isStringLiteralLike(value)) add(declaration.name.text, value.text);
        if (ts.isObjectLiteralExpression(value))
          for (const property of value.properties)
            if (
              ts.isPropertyAssignment(property) &&
              ts.isIdentifier(property.name) &&
              ts.isStringLiteralLike(property.initializer)
            )
              add(`${declaration.name.text}.${property.name.text}`, property.initializer.text);
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
      const text = node.initializer.getText(file);
      const values = ts.isStringLiteralLike(node.initializer)
        ? new Set([node.initializer.text])
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
