import { beforeAll, expect, it } from "vitest";
import * as adminServices from "~/routes/admin/services";
import { signedInCookie } from "../support/account-fixtures";
import { appFetch, type AppFetch } from "../support/app-harness";
import { customerWithCoins } from "../support/money-fixtures";
import { postAction, type ActionAnswer } from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

// /admin/services through its route module and the rendered page: the list's filters in the address,
// the edit form's answers (a refusal is a 400 or 404 with a message, never a 500).
describeEachDatabase("/admin/services", (app) => {
  let cookie: string;
  let fetchApp: AppFetch;
  let serviceId: number;
  let customerId: number;
  const tag = `svc${Date.now().toString(36)}`;

  beforeAll(async () => {
    cookie = await signedInCookie(app(), TEST_ADMIN, { ip: "10.60.0.1" });
    fetchApp = appFetch(app());
    const customer = await customerWithCoins(app(), 0);
    customerId = Number(customer);
    const added = (await post({
      intent: "add",
      userId: customer,
      name: `Annual ${tag}`,
      price: "10",
      billingCycle: "annual",
    })) as Record<string, unknown>;
    expect(added).toEqual({ ok: true, message: "services.admin.added" });
    serviceId = (
      await app()
        .db.selectFrom("hosting_services")
        .select("id")
        .where("name", "=", `Annual ${tag}`)
        .executeTakeFirstOrThrow()
    ).id;
  });

  const post = (fields: Record<string, string>) =>
    postAction(app(), adminServices, "/admin/services", fields, { cookie });

  it("renders the list filtered, sorted and paged from the address, with the edit form", async () => {
    const response = await fetchApp(
      `/admin/services?q=${tag}&status=active&within=30&sort=price&dir=asc&edit=${serviceId}`,
      { cookie },
    );
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`Annual ${tag}`);
    // €102.00: 12 × €10.00 less the annual 15%.
    expect(html).toMatch(/102\.00/);
    expect(html).toContain('role="search"');
    expect(html).toContain('name="expiresOn"');
    expect(html).toContain(`Edit service #${serviceId}`);
    // Nothing is within 7 days: the filtered list says so.
    const none = await fetchApp(`/admin/services?q=${tag}&within=7`, { cookie });
    expect(await none.text()).toContain("No service matches these filters.");
    // A page past the end, and values that do not parse, are an empty page and ignored filters.
    const past = await fetchApp(`/admin/services?q=${tag}&page=99&status=nope&sort=evil`, {
      cookie,
    });
    expect(past.status).toBe(200);
    expect(await past.text()).toContain("No service matches these filters.");
  });

  const edit = (fields: Record<string, string>) =>
    post({
      intent: "edit",
      serviceId: String(serviceId),
      name: "Edited",
      price: "99.99",
      expiresOn: "2030-06-30",
      adminNote: "",
      ...fields,
    }) as Promise<ActionAnswer | Record<string, unknown>>;

  it("saves an edit", async () => {
    expect(await edit({})).toEqual({ ok: true, intent: "edit", message: "services.admin.updated" });
    expect(await edit({})).toEqual({
      ok: true,
      intent: "edit",
      message: "services.admin.unchanged",
    });
  });

  it("refuses bad input with its message and what was typed (400), an unknown service with 404", async () => {
    const bad = (await edit({ expiresOn: "2030-02-31", price: "-3" })) as ActionAnswer;
    expect(bad.init?.status).toBe(400);
    expect(bad.data).toMatchObject({
      ok: false,
      intent: "edit",
      message: "services.errors.editRefused",
      fieldErrors: {
        expiresOn: "services.errors.expiryInvalid",
        price: "services.errors.price.negative",
      },
      values: { expiresOn: "2030-02-31", price: "-3" },
    });
    // Adding says the same of a negative price, not "must be a number".
    const badAdd = (await post({
      intent: "add",
      userId: String(customerId),
      name: `Negative ${tag}`,
      price: "-3",
      billingCycle: "monthly",
    })) as ActionAnswer;
    expect(badAdd.init?.status).toBe(400);
    expect(JSON.stringify(badAdd.data)).toContain('"services.errors.price.negative"');
    const missing = (await edit({ serviceId: "999999" })) as ActionAnswer;
    expect(missing.init?.status).toBe(404);
    expect(missing.data).toMatchObject({ ok: false, message: "services.errors.notFound" });
    const garbage = (await edit({ serviceId: "abc" })) as ActionAnswer;
    expect(garbage.init?.status).toBe(400);
  });
});
