import { beforeEach, expect, it } from "vitest";
import { adminId } from "../../../tests/support/money-fixtures";
import { productForm } from "../../../tests/support/catalogue-fixtures";
import { savePanelSnapshot, testPanelSnapshot } from "../../../tests/support/panel-snapshot";
import { latestRow, readRow } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { parseStoredProvisioning } from "~/domain/provisioning/provisioning.schemas";
import { createProduct, loadProductsPage, updateProduct } from "./catalogue-admin.server";
import { findActiveProduct } from "./catalogue.server";

/** An MTA plan's provisioning fields as the editor sends them, on the snapshot's MTA egg (3). */
const mtaFields = {
  provisioner: "pterodactyl",
  nestId: "2",
  eggId: "3",
  dockerImage: "ghcr.io/parkervcp/games:mta",
  startup: "./mta-server64 --port {{SERVER_PORT}} --httpport {{SERVER_WEBPORT}} -n",
  memoryMb: "2048",
  swapMb: "0",
  diskMb: "10240",
  cpuPercent: "150",
  ioWeight: "500",
  databases: "1",
  backups: "2",
  allocations: "3",
  portLayout: "mta",
  httpPortVariable: "SERVER_WEBPORT",
  slotsVariable: "",
  "location-1": "on",
  "env.SERVER_WEBPORT": "22005",
};

// The product save stores the provisioning block with the product, in its transaction and
// audit, after checking it against the game panel's last check (docs/provisioning.md "The product
// editor").
describeEachDatabase("a product's provisioning block", (app) => {
  beforeEach(async () => {
    await savePanelSnapshot(app().db, testPanelSnapshot());
  });

  async function storedBlock(id: number) {
    const row = await readRow(app().db, "products", ["provisioning"], { id });
    return row.provisioning;
  }

  async function lastAudit(id: number) {
    const row = await latestRow(app().db, "audit_log", ["action", "before", "after"], {
      target_type: "product",
      target_id: String(id),
    });
    return {
      action: row.action,
      before: row.before === null ? null : (JSON.parse(row.before) as Record<string, unknown>),
      after: JSON.parse(row.after!) as Record<string, unknown>,
    };
  }

  it("stores a Pterodactyl block with the product, audited, and a switch back to none as null", async () => {
    const { db } = app();
    const actorId = await adminId(app());
    const created = await createProduct(db, { actorId, product: productForm(mtaFields) });
    if (!created.ok) throw new Error(created.error);
    const id = created.product.id;
    const block = {
      provisioner: "pterodactyl",
      nestId: 2,
      eggId: 3,
      dockerImage: "ghcr.io/parkervcp/games:mta",
      startup: "./mta-server64 --port {{SERVER_PORT}} --httpport {{SERVER_WEBPORT}} -n",
      memoryMb: 2048,
      swapMb: 0,
      diskMb: 10240,
      cpuPercent: 150,
      ioWeight: 500,
      databases: 1,
      backups: 2,
      allocations: 3,
      portLayout: "mta",
      locationIds: [1],
      nodeIds: [],
      environment: { SERVER_WEBPORT: "22005" },
      slotsVariable: null,
      httpPortVariable: "SERVER_WEBPORT",
    };
    // What the order and approval code read back.
    expect(parseStoredProvisioning(await storedBlock(id))).toEqual({
      provisioning: block,
      unreadable: false,
    });
    expect(created.product).toMatchObject({ provisioning: block, provisioningUnreadable: false });
    expect((await findActiveProduct(db, id))?.provisioned).toBe(true);
    expect((await lastAudit(id)).after.provisioning).toEqual(block);

    const manual = await updateProduct(db, { actorId, id, product: productForm() });
    expect(manual.ok).toBe(true);
    expect(await storedBlock(id)).toBeNull();
    expect((await findActiveProduct(db, id))?.provisioned).toBeUndefined();
    const audit = await lastAudit(id);
    expect(audit.action).toBe("product.update");
    expect(audit.before?.provisioning).toEqual(block);
    expect(audit.after.provisioning).toEqual({ provisioner: "none" });
  });

  it("refuses a value the egg's rules refuse, on its field, saving nothing", async () => {
    const { db } = app();
    const actorId = await adminId(app());
    const created = await createProduct(db, { actorId, product: productForm() });
    if (!created.ok) throw new Error(created.error);
    const before = await lastAudit(created.product.id);
    const refused = await updateProduct(db, {
      actorId,
      id: created.product.id,
      product: productForm({
        ...mtaFields,
        name: "Not saved",
        "env.SERVER_WEBPORT": "port 80",
        // A value left from another egg's form is no refusal: it is dropped.
        "env.MAX_PLAYERS": "50",
      }),
    });
    expect(refused).toEqual({
      ...refusal("invalid", "admin-catalogue.products.provisioning.errors.notFitting"),
      fieldErrors: { "env.SERVER_WEBPORT": "admin-catalogue.products.provisioning.rules.numeric" },
      fieldErrorValues: { "env.SERVER_WEBPORT": {} },
    });
    expect(await storedBlock(created.product.id)).toBeNull();
    expect((await findActiveProduct(db, created.product.id))?.name).not.toBe("Not saved");
    expect(await lastAudit(created.product.id)).toEqual(before);

    // The egg's rule with values: the form shows "from 1 to 1000".
    const samp = await createProduct(db, {
      actorId,
      product: productForm({
        ...mtaFields,
        eggId: "2",
        dockerImage: "ghcr.io/parkervcp/games:samp",
        startup: "./samp03svr",
        portLayout: "single",
        allocations: "1",
        slotsVariable: "MAX_PLAYERS",
        "env.SERVER_WEBPORT": "",
        "env.VERSION": "0.3.7",
        "env.RCON_PASS": "secret",
        "env.MAX_PLAYERS": "5000",
      }),
    });
    expect(samp).toMatchObject({
      ok: false,
      fieldErrors: {
        "env.MAX_PLAYERS": "admin-catalogue.products.provisioning.rules.betweenNumber",
      },
      fieldErrorValues: { "env.MAX_PLAYERS": { min: 1, max: 1000 } },
    });
  });

  it("refuses an egg the panel did not have, and Pterodactyl before the panel is checked", async () => {
    const { db } = app();
    const actorId = await adminId(app());
    const unknown = await createProduct(db, {
      actorId,
      product: productForm({ ...mtaFields, eggId: "42" }),
    });
    expect(unknown).toMatchObject({
      ok: false,
      kind: "invalid",
      fieldErrors: { eggId: "admin-catalogue.products.provisioning.errors.eggUnknown" },
    });

    await savePanelSnapshot(db, null);
    expect(await createProduct(db, { actorId, product: productForm(mtaFields) })).toMatchObject({
      ok: false,
      fieldErrors: { provisioner: "admin-catalogue.products.provisioning.errors.panelNotChecked" },
    });
    // By hand needs no panel.
    expect((await createProduct(db, { actorId, product: productForm() })).ok).toBe(true);
  });

  it("gives the editor the panel's last check, and the list none", async () => {
    const { db } = app();
    expect((await loadProductsPage(db, { edit: "new" })).panel).toEqual(testPanelSnapshot());
    expect((await loadProductsPage(db, {})).panel).toBeNull();
    await savePanelSnapshot(db, null);
    expect((await loadProductsPage(db, { edit: "new" })).panel).toBeNull();
  });
});
