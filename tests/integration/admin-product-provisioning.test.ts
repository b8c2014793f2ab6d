import { beforeEach, expect, it } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import type { AdminProduct } from "~/domain/catalogue/catalogue-admin";
import { parseStoredProvisioning } from "~/domain/provisioning/provisioning.schemas";
import * as adminProducts from "~/routes/admin/products";
import { appFetch } from "../support/app-harness";
import { savePanelSnapshot, testPanelSnapshot } from "../support/panel-snapshot";
import {
  contextFor,
  cookieHeader,
  postAction,
  routeArgs,
  settle,
  type ActionAnswer,
} from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

/** A SA-MP plan's provisioning fields as the editor sends them, on the snapshot's SA-MP egg (2). */
const sampFields = {
  provisioner: "pterodactyl",
  nestId: "2",
  eggId: "2",
  dockerImage: "ghcr.io/parkervcp/games:samp",
  startup: "./samp03svr",
  memoryMb: "1024",
  swapMb: "0",
  diskMb: "5120",
  cpuPercent: "100",
  ioWeight: "500",
  databases: "0",
  backups: "1",
  allocations: "1",
  portLayout: "single",
  httpPortVariable: "",
  slotsVariable: "MAX_PLAYERS",
  "node-3": "on",
  "env.VERSION": "0.3.7",
  "env.RCON_PASS": "s3cret",
  "env.MAX_PLAYERS": "50",
};

// The game panel's provisioning through /admin/products' route module and the pages it renders: the
// provisioning block in the product editor, its refusals as 400s with each field's message, the list's
// badge.
describeEachDatabase("the product editor's provisioning block", (app) => {
  let cookie = "";
  beforeEach(async () => {
    if (!cookie) {
      const result = await signIn(app(), TEST_ADMIN, { ip: "10.63.0.1" });
      if (!result.ok) throw new Error("sign in failed");
      cookie = cookieHeader(result.setCookies);
    }
    await savePanelSnapshot(app().db, testPanelSnapshot());
  });

  async function sampStarter() {
    return app()
      .db.selectFrom("products")
      .selectAll()
      .where("slug", "=", "samp-starter")
      .executeTakeFirstOrThrow();
  }

  /** The editor's fields for SA-MP Starter as it is, with `fields` over them. */
  async function formWith(fields: Record<string, string>) {
    const product = await sampStarter();
    return {
      intent: "update",
      id: String(product.id),
      name: product.name,
      slug: product.slug,
      type: product.type,
      category: "",
      status: product.status,
      description: product.description,
      price: (product.price_cents / 100).toFixed(2),
      features: (JSON.parse(product.features) as string[]).join("\n"),
      ...fields,
    };
  }

  async function post(fields: Record<string, string>) {
    return postAction(app(), adminProducts, "/admin/products", fields, { cookie });
  }

  async function page(path: string) {
    const response = await appFetch(app())(path, { cookie });
    expect(response.status).toBe(200);
    return response.text();
  }

  it("answers 400 with each refused field's message and what was typed", async () => {
    // The egg's rule, with the values its message takes.
    const refused = (await post(
      await formWith({ ...sampFields, "env.MAX_PLAYERS": "5000", "env.RCON_PASS": "" }),
    )) as ActionAnswer;
    expect(refused.init?.status).toBe(400);
    expect(refused.data).toMatchObject({
      ok: false,
      intent: "save",
      message: "admin-catalogue.products.saveFailed",
      reason: "admin-catalogue.products.provisioning.errors.notFitting",
      fieldErrors: {
        "env.RCON_PASS": "admin-catalogue.products.provisioning.rules.required",
        "env.MAX_PLAYERS": "admin-catalogue.products.provisioning.rules.betweenNumber",
      },
      fieldErrorValues: { "env.MAX_PLAYERS": { min: 1, max: 1000 } },
      values: { "env.MAX_PLAYERS": "5000", memoryMb: "1024", "node-3": "on" },
    });
    // An egg the panel did not have, on the egg's field.
    const unknownEgg = (await post(await formWith({ ...sampFields, eggId: "77" }))) as ActionAnswer;
    expect(unknownEgg.init?.status).toBe(400);
    expect(unknownEgg.data.fieldErrors).toEqual({
      eggId: "admin-catalogue.products.provisioning.errors.eggUnknown",
    });
    // What the form schema refuses, each on its field, the product's own beside them.
    const typos = (await post(
      await formWith({ ...sampFields, memoryMb: "lots", "location-x": "on", price: "0" }),
    )) as ActionAnswer;
    expect(typos.init?.status).toBe(400);
    expect(typos.data.fieldErrors).toEqual({
      memoryMb: "admin-catalogue.products.provisioning.errors.memoryMbInvalid",
      locationIds: "admin-catalogue.products.provisioning.errors.locationIdsInvalid",
      price: "admin-catalogue.products.errors.priceZero",
    });
    expect(await sampStarter()).toMatchObject({ provisioning: null });

    // The page of a refused save (a browser without JavaScript) says it on the field, as typed.
    const html = await (
      await appFetch(app())(`/admin/products?edit=${(await sampStarter()).id}`, {
        cookie,
        form: await formWith({ ...sampFields, "env.MAX_PLAYERS": "5000" }),
      })
    ).text();
    expect(html).toContain("The egg requires a number from 1 to 1000");
    expect(html).toMatch(/id="product-env\.MAX_PLAYERS"[^>]*value="5000"/);
  });

  it("saves the block, shows the badge in the list, and goes back to by hand", async () => {
    const id = (await sampStarter()).id;
    const saved = await post(await formWith(sampFields));
    expect(saved).toBeInstanceOf(Response);
    expect((saved as Response).headers.get("location")).toBe(
      `/admin/products?notice=updated#product-${id}`,
    );
    const stored = parseStoredProvisioning((await sampStarter()).provisioning);
    expect(stored.provisioning).toMatchObject({
      provisioner: "pterodactyl",
      eggId: 2,
      nodeIds: [3],
      locationIds: [],
      environment: { VERSION: "0.3.7", RCON_PASS: "s3cret", MAX_PLAYERS: "50" },
      slotsVariable: "MAX_PLAYERS",
    });

    const list = (await settle(async () =>
      adminProducts.loader(
        routeArgs({
          request: new Request("http://localhost/admin/products", { headers: { cookie } }),
          context: await contextFor(app(), { cookie }),
        }),
      ),
    )) as { products: AdminProduct[] };
    const provisioned = list.products.filter(
      (product) => product.provisioning.provisioner === "pterodactyl",
    );
    expect(provisioned.map((product) => product.id)).toEqual([id]);
    expect(await page("/admin/products")).toContain(">Pterodactyl</span>");

    // Opened again, the editor holds the block: the egg's fields with their values.
    const editor = await page(`/admin/products?edit=${id}`);
    expect(editor).toMatch(/id="product-env\.RCON_PASS"[^>]*value="s3cret"/);
    expect(editor).toMatch(/name="node-3"[^>]*checked/);

    expect(await post(await formWith({ provisioner: "none" }))).toBeInstanceOf(Response);
    expect((await sampStarter()).provisioning).toBeNull();
  });

  it("saves a variable drawn for each server, offered where the egg's rules take one", async () => {
    const id = (await sampStarter()).id;
    // A SA-MP egg chosen anew starts with its RCON password drawn per server, without JavaScript.
    const chosen = await page(`/admin/products?edit=${id}&eggId=2`);
    expect(chosen).toMatch(/name="generate\.RCON_PASS"[^>]*checked/);
    expect(chosen).toContain("Rcon password: a new random value for each server");
    // An integer cannot be drawn from letters and digits: no switch for the player count.
    expect(chosen).not.toContain('name="generate.MAX_PLAYERS"');

    // The RCON password's own value is required by the egg, but not looked at when it is drawn.
    const saved = await post(
      await formWith({ ...sampFields, "env.RCON_PASS": "", "generate.RCON_PASS": "on" }),
    );
    expect(saved).toBeInstanceOf(Response);
    const stored = parseStoredProvisioning((await sampStarter()).provisioning).provisioning;
    expect(stored).toMatchObject({
      environment: { VERSION: "0.3.7", MAX_PLAYERS: "50" },
      generatedVariables: ["RCON_PASS"],
    });
    expect(stored.provisioner === "pterodactyl" && stored.environment).not.toHaveProperty(
      "RCON_PASS",
    );
    const editor = await page(`/admin/products?edit=${id}`);
    expect(editor).toMatch(/name="generate\.RCON_PASS"[^>]*checked/);

    // A variable whose rules a drawn value cannot pass is refused on its field, with its rules.
    const refused = (await post(
      await formWith({ ...sampFields, slotsVariable: "", "generate.MAX_PLAYERS": "on" }),
    )) as ActionAnswer;
    expect(refused.init?.status).toBe(400);
    expect(refused.data).toMatchObject({
      fieldErrors: {
        "env.MAX_PLAYERS": "admin-catalogue.products.provisioning.errors.generatedRefused",
      },
      fieldErrorValues: { "env.MAX_PLAYERS": { rules: "required|integer|between:1,1000" } },
    });
    // The slots' variable is the order's to write.
    const taken = (await post(
      await formWith({ ...sampFields, "generate.MAX_PLAYERS": "on" }),
    )) as ActionAnswer;
    expect(taken.init?.status).toBe(400);
    expect(taken.data.fieldErrors).toEqual({
      "env.MAX_PLAYERS": "admin-catalogue.products.provisioning.errors.generatedTaken",
    });
    expect(parseStoredProvisioning((await sampStarter()).provisioning).provisioning).toEqual(
      stored,
    );
    expect(await post(await formWith({ provisioner: "none" }))).toBeInstanceOf(Response);
  });

  it("fills the form from the egg chosen with the picker, without JavaScript", async () => {
    const html = await page("/admin/products?edit=new&eggId=3");
    // The picker is its own GET form, which the select and the button point at.
    expect(html).toMatch(/<form id="product-egg-picker"[^>]*method="get"/);
    expect(html).toMatch(/<input type="hidden" name="edit" value="new"/);
    expect(html).toMatch(/<select[^>]*form="product-egg-picker"/);
    expect(html).toMatch(/<button[^>]*form="product-egg-picker"[^>]*>Choose egg</);
    // The MTA egg's image, startup and variable, with its rules as the hint.
    expect(html).toMatch(/id="product-env\.SERVER_WEBPORT"[^>]*value="22005"/);
    expect(html).toContain("The egg&#x27;s rules: required|numeric");
    expect(html).toContain("./mta-server64 --port {{SERVER_PORT}}");
    expect(html).toMatch(/<input type="hidden" name="eggId" value="3"/);
    expect(html).toContain("de: Germany (Falkenstein)");
    expect(html).toContain("us-ash-1 (us)");
  });

  it("tells the admin when the stored block does not read", async () => {
    const { id } = await sampStarter();
    await app()
      .db.updateTable("products")
      .set({ provisioning: "{not json" })
      .where("id", "=", id)
      .execute();
    const html = await page(`/admin/products?edit=${id}`);
    expect(html).toContain("could not be read, so its orders are set up by hand for now");
    expect(html).toMatch(/<option value="none" selected="">/);
    await app()
      .db.updateTable("products")
      .set({ provisioning: null })
      .where("id", "=", id)
      .execute();
  });

  it("sends the admin to the game panel settings while the panel is not checked", async () => {
    await savePanelSnapshot(app().db, null);
    const html = await page("/admin/products?edit=new");
    expect(html).toContain('href="/admin/settings/game-panel"');
    expect(html).toContain("The game panel has not been checked yet");
    expect(html).not.toContain('value="pterodactyl"');
    const refused = (await post(await formWith(sampFields))) as ActionAnswer;
    expect(refused.init?.status).toBe(400);
    expect(refused.data.fieldErrors).toEqual({
      provisioner: "admin-catalogue.products.provisioning.errors.panelNotChecked",
    });
  });
});
