import { expect, it } from "vitest";
import { productForm } from "../../../tests/support/catalogue-fixtures";
import { adminId } from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { productActionSchema } from "./catalogue-admin.schemas";
import {
  createProduct,
  findProductForAdmin,
  loadProductsPage,
  updateProduct,
} from "./catalogue-admin.server";
import type { ProductInput } from "./catalogue-admin";

// The changes of plan an admin allows, saved with the product in the editor (docs/self-service.md):
// each to another product of the same type, refused otherwise, and dropped when a type change makes a
// path join two types.

describeEachDatabase("the plans a product's services may change to", (app) => {
  async function created(fields: Record<string, string> = {}) {
    const result = await createProduct(app().db, {
      actorId: await adminId(app()),
      product: productForm(fields),
    });
    if (!result.ok) throw new Error(result.error);
    return result.product;
  }

  /** The product as its editor would post it again, with `changes` over its fields. */
  async function saved(id: number, changes: Partial<ProductInput>) {
    const product = (await findProductForAdmin(app().db, id))!;
    return updateProduct(app().db, {
      actorId: await adminId(app()),
      id,
      product: { ...productForm({ type: product.type, name: product.name }), ...changes },
    });
  }

  it("reads the editor's ticked boxes as the product's paths, and saves them with the product", async () => {
    const small = await created();
    const large = await created();
    // The editor's checkboxes, as the browser posts them.
    const parsed = productActionSchema.parse({
      intent: "update",
      id: String(small.id),
      name: small.name,
      type: "mta",
      price: "5",
      [`changeTo-${large.id}`]: "on",
    });
    if (parsed.intent !== "update") throw new Error("not an update");
    expect(parsed.product.changeTo).toEqual([large.id]);
    const result = await updateProduct(app().db, {
      actorId: await adminId(app()),
      id: small.id,
      product: parsed.product,
    });
    if (!result.ok) throw new Error(result.error);
    expect(result.product.changeTo).toEqual([large.id]);
    expect(
      await readRows(app().db, "product_plan_paths", "*", { from_product_id: small.id }),
    ).toEqual([expect.objectContaining({ to_product_id: large.id })]);
    // The audit keeps what changed, paths included.
    const audit = await readRows(app().db, "audit_log", ["after"], {
      action: "product.update",
      target_id: String(small.id),
    });
    expect(JSON.parse(audit.at(-1)!.after!)).toMatchObject({ changeTo: [large.id] });
    // The editor lists every product: those of the type are its choices.
    const page = await loadProductsPage(app().db, { edit: small.id });
    expect(page.planChoices.map((choice) => choice.id)).toContain(large.id);
    // A post without the group (another form of the product) leaves its paths as they are...
    const kept = await saved(small.id, { description: "no group" });
    expect(kept.ok && kept.product.changeTo).toEqual([large.id]);
    // ...and the group with no box ticked (its empty field alone) leaves none.
    const none = productActionSchema.parse({
      intent: "update",
      id: String(small.id),
      name: small.name,
      type: "mta",
      price: "5",
      changeTo: "",
    });
    if (none.intent !== "update") throw new Error("not an update");
    expect(none.product.changeTo).toEqual([]);
    const cleared = await saved(small.id, { changeTo: none.product.changeTo });
    expect(cleared.ok && cleared.product.changeTo).toEqual([]);
  });

  it("refuses a path to a product of another type, or to itself, and saves nothing of the form", async () => {
    const mta = await created();
    const samp = await created({ type: "samp" });
    const before = await findProductForAdmin(app().db, mta.id);
    for (const changeTo of [[samp.id], [mta.id], [999_999]])
      expect(await saved(mta.id, { changeTo, description: "changed" })).toMatchObject({
        ok: false,
        kind: "invalid",
        error: "admin-catalogue.products.errors.changeToType",
      });
    expect(await findProductForAdmin(app().db, mta.id)).toEqual(before);
  });

  it("drops the paths other products had to a product moved to another type", async () => {
    const first = await created();
    const second = await created();
    expect((await saved(first.id, { changeTo: [second.id] })).ok).toBe(true);
    const moved = await saved(second.id, { type: "samp", changeTo: [] });
    expect(moved.ok).toBe(true);
    expect((await findProductForAdmin(app().db, first.id))!.changeTo).toEqual([]);
  });
});
