import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { listActionSchema, type ListArea } from "~/http/list-editor.server";
import { dataUrl, flattenRoutes, routeModule } from "../support/app-harness";
import { schemaTables } from "../support/schema-snapshot";
import { describeEachDatabase } from "../support/test-database";
import { matrixWorld } from "./authorization-matrix-harness";
import { forgedForm } from "./authorization-matrix-intents";
import {
  ADMIN_ACTIONS,
  anyStaff,
  everyone,
  FILLED_BY_READS,
  intentsOf,
  missingRowMessage,
  post,
  ROLES,
  ROUTES,
  STAFF_COLUMNS,
  WRITTEN_BY_DESIGN,
  type Post,
  type Role,
} from "./authorization-matrix-rows";

/**
 * Who may do what, for every route of app/routes.ts (the table: authorization-matrix-rows.ts), as an
 * anonymous visitor, customer A, customer B and a member of the staff of each role: each GET and each
 * POST gets the answer its row says, never a 5xx or a stack trace, B and anonymous visitors never see
 * A's data (in pages or in .data responses), a page a role may not see answers 403 naming the missing
 * permission inside the admin shell, a GET changes nothing, and a refused POST changes nothing.
 * Beside it: authorization-matrix-staff.test.ts (every intent refused to each role without its
 * permission) and authorization-matrix-customers.test.ts (B tries A's things by id).
 */

const pages = flattenRoutes().filter((route) => !route.layout);
const isStaff = (role: Role) => (STAFF_COLUMNS as readonly Role[]).includes(role);

it("has a row for every route of app/routes.ts, and no row for a route that is gone", () => {
  const missing = pages.filter((route) => !ROUTES[route.pattern]);
  expect(missing.map(missingRowMessage), "routes without a row").toEqual([]);
  const patterns = new Set(pages.map((route) => route.pattern));
  const stale = Object.keys(ROUTES).filter((pattern) => !patterns.has(pattern));
  expect(stale, "rows for routes that app/routes.ts no longer has").toEqual([]);
});

it("names the permission of every admin row, and of every row some member of the staff is refused", () => {
  for (const [pattern, row] of Object.entries(ROUTES)) {
    const refused = STAFF_COLUMNS.some((role) => row.get[role] === 403);
    if (pattern.startsWith("/admin") || refused)
      expect(row.permission, `${pattern}: its row names no permission`).not.toBeUndefined();
    // A page that asks no permission refuses no member of the staff.
    if (row.permission === null) expect(refused, pattern).toBe(false);
  }
});

describeEachDatabase("authorization matrix", (app) => {
  const world = matrixWorld(app);
  const { fetchApp, cookies, expectAnswer, expectClean, expectRefusal } = world;
  const { fingerprint, expectUnchanged } = world;

  it("compares every table of the schema but those named with a reason", async () => {
    const tables = await schemaTables(app().db);
    for (const table of ["users", "orders", "coin_ledger", ...FILLED_BY_READS])
      expect(tables).toContain(table);
    for (const table of Object.keys(WRITTEN_BY_DESIGN)) expect(tables).toContain(table);
    expect(Object.keys(await fingerprint()).sort()).toEqual(
      tables.filter((table) => !(table in WRITTEN_BY_DESIGN)),
    );
  });

  it("lists the form schema of every admin action, as its route module names it", async () => {
    const withAction: string[] = [];
    for (const route of pages.filter((r) => r.pattern.startsWith("/admin"))) {
      const module = await routeModule(route.file);
      if (typeof module.action !== "function") continue;
      withAction.push(route.pattern);
      const entry = ADMIN_ACTIONS[route.pattern];
      expect(
        entry,
        `${route.pattern} has an action: add its schema to ADMIN_ACTIONS`,
      ).toBeDefined();
      const source = readFileSync(
        path.resolve(import.meta.dirname, "../../app", route.file),
        "utf8",
      );
      // A list with an editor names its list; the list's entry in app/http/list-editor.server.ts
      // names the schema.
      const list = /\blistEditorAction\([^;]*"(\w+)"\)/.exec(source)?.[1];
      // A page that also has forms of its own beside its list names their schema in an adminAction.
      for (const [name, schema] of Object.entries(entry!))
        if (list && Object.keys(entry!)[0] === name)
          expect(listActionSchema(list as ListArea), `the "${list}" list parses with ${name}`).toBe(
            schema,
          );
        else
          expect(source, `app/${route.file} parses its form with ${name}`).toMatch(
            new RegExp(`\\badmin(?:Form|Action)\\([^)]*\\b${name}\\b`),
          );
    }
    expect(Object.keys(ADMIN_ACTIONS).sort()).toEqual(withAction.sort());
  });

  it("refuses every intent of every admin action to customers and visitors, changing nothing", async () => {
    const seed = world.seed();
    for (const [pattern, entry] of Object.entries(ADMIN_ACTIONS)) {
      const url = ROUTES[pattern]?.url?.(seed) ?? pattern;
      const before = await fingerprint();
      for (const intent of Object.values(entry).flatMap(intentsOf)) {
        const form = forgedForm(seed, intent);
        for (const role of ["anonymous", "customerA", "customerB"] as const) {
          const what = `POST ${url} ${JSON.stringify(form)} as ${role}`;
          const response = await fetchApp(url, { cookie: cookies[role], form });
          expectAnswer(response, anyStaff("4xx")[role], url, what);
          await expectClean(response, role, what);
        }
      }
      expectUnchanged(before, await fingerprint(), `POSTs to ${pattern} by non-admins`);
    }
  });

  for (const route of pages) {
    it(`${route.pattern} (${route.id})`, async () => {
      const row = ROUTES[route.pattern];
      if (!row) throw new Error(missingRowMessage(route));
      const seed = world.seed();
      const url = row.url?.(seed) ?? route.pattern;
      const module = await routeModule(route.file);

      // GET, as a page and as the .data request the browser makes when it navigates.
      const before = await fingerprint();
      for (const role of ROLES) {
        const what = `GET ${url} as ${role}`;
        const response = await fetchApp(url, { cookie: cookies[role] });
        expectAnswer(response, row.get[role], url, what);
        const body = await expectClean(response, role, what);
        const refused = isStaff(role) && row.get[role] === 403;
        // A page the role may not see says which permission is missing.
        if (refused) expectRefusal(response, body, row.permission!, role, what);
        const [path, search] = url.split("?");
        const dataPath = `${dataUrl(path!)}${search ? `?${search}` : ""}`;
        const data = await fetchApp(dataPath, { cookie: cookies[role] });
        if (refused) expect(data.status, `GET ${dataPath} as ${role}`).toBe(403);
        await expectClean(data, role, `GET ${dataPath} as ${role}`);
      }
      // One fingerprint per request from here: each refusal is compared with the state before it.
      let known = await fingerprint();
      expectUnchanged(before, known, `GET ${url} changed the database`);

      // POST: the row's forms, or for a route without an action a 405 to everyone.
      const hasAction = typeof module.action === "function";
      const posts = row.post ?? [];
      if (hasAction)
        expect(posts.length, `${route.pattern} has an action: give its row a POST`).toBeGreaterThan(
          0,
        );
      const checks: Post[] = hasAction ? posts : [post({ intent: "matrix-probe" }, everyone(405))];
      for (const check of checks) {
        for (const role of ROLES) {
          const what = `POST ${url} ${JSON.stringify(check.form(seed))} as ${role}`;
          const cookie = check.freshSession ? await world.freshCookie(role) : cookies[role];
          const response = await fetchApp(url, { cookie, form: check.form(seed) });
          expectAnswer(response, check.answers[role], url, what);
          const body = await expectClean(response, role, what);
          // The guard's refusal of a post names a permission (the staff test says which).
          // A route without a page answers it as data (the staff test reads which permission).
          if (isStaff(role) && check.answers[role] === 403 && url.startsWith("/admin"))
            expect(body, `${what}: the refusal`).toContain(
              module.default ? 'aria-labelledby="permission-refused"' : '"refused":"permission"',
            );
          const refused =
            response.status >= 400 ||
            /^\/(login\?|$)/.test(response.headers.get("location") ?? "-");
          const now = await fingerprint();
          if (refused && !check.freshSession)
            expectUnchanged(known, now, `${what} was refused but changed the database`);
          known = now;
        }
      }
    });
  }
});
