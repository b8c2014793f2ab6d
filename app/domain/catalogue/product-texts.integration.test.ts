import { expect, it } from "vitest";
import { adminId } from "../../../tests/support/money-fixtures";
import { productForm as planForm, uniqueSuffix } from "../../../tests/support/catalogue-fixtures";
import { latestRow, readRow, readRows } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { SEED_PRODUCTS } from "./catalogue-seed.server";
import {
  createProduct,
  deleteProduct,
  findProductForAdmin,
  setProductStatus,
  updateProduct,
} from "./catalogue-admin.server";
import {
  findActiveProduct,
  listActiveProducts,
  readTranslations,
  seedCatalogue,
} from "./catalogue.server";

/** A product as the admin's form sends it (English plus any French and Arabic fields), parsed. */
const productForm = (fields: Record<string, string> = {}) =>
  planForm({
    name: `Texts plan ${uniqueSuffix()}`,
    description: "An English description",
    ...fields,
  });

const mtaStarter = SEED_PRODUCTS.find((product) => product.slug === "mta-starter")!;

// A product's name, description and features per language, English the fallback (ADR 19).
describeEachDatabase("product texts per language", (app) => {
  async function created(fields: Record<string, string>) {
    const result = await createProduct(app().db, {
      actorId: await adminId(app()),
      product: productForm(fields),
    });
    if (!result.ok) throw new Error(result.error);
    return result.product;
  }

  it("seeds the plans in French and Arabic, and the storefront reads the reader's language", async () => {
    const { db } = app();
    const en = await listActiveProducts(db, "mta", "en");
    const fr = await listActiveProducts(db, "mta", "fr");
    const ar = await listActiveProducts(db, "mta", "ar");
    const starter = (list: typeof en) => list.find((product) => product.slug === "mta-starter")!;
    expect(starter(en)).toMatchObject({
      name: "MTA Starter",
      description: "A small MTA:SA server to start with.",
      features: ["DDoS protection", "24/7 support"],
    });
    expect(starter(fr)).toMatchObject({
      name: "MTA Essentiel",
      description: "Un petit serveur MTA:SA pour bien démarrer.",
      features: ["Protection anti-DDoS", "Support 24h/24, 7j/7"],
    });
    expect(starter(ar).description).toBe("خادم MTA:SA صغير لتبدأ به.");
    expect(starter(ar).features).toContain("حماية من هجمات DDoS");
    // Everything else is the same product: price, specs, order.
    expect(fr.map((p) => [p.id, p.priceCents, p.specs])).toEqual(
      en.map((p) => [p.id, p.priceCents, p.specs]),
    );
    // A language without texts of its own reads English.
    expect(await listActiveProducts(db, "mta", "de")).toEqual(en);
    expect(await findActiveProduct(db, starter(en).id)).toEqual(starter(en));
    expect(await findActiveProduct(db, starter(en).id, "fr")).toEqual(starter(fr));
  });

  it("saves each language's texts and falls back to English field by field", async () => {
    const { db } = app();
    const product = await created({
      nameFr: "Plan texte",
      descriptionFr: "",
      featuresFr: "",
      nameAr: "",
      descriptionAr: "وصف بالعربية",
      featuresAr: "حماية\n\nحماية\nدعم",
    });
    expect(product.translations).toEqual({
      fr: { name: "Plan texte", description: "", features: [] },
      ar: { name: "", description: "وصف بالعربية", features: ["حماية", "دعم"] },
    });
    const shown = async (locale: string) =>
      (await listActiveProducts(db, "mta", locale)).find((p) => p.id === product.id)!;
    // French: its own name; the empty description and features are the English ones.
    expect(await shown("fr")).toMatchObject({
      name: "Plan texte",
      description: "An English description",
      features: ["DDoS protection", "NVMe"],
    });
    // Arabic: the English name, its own description and features.
    expect(await shown("ar")).toMatchObject({
      name: product.name,
      description: "وصف بالعربية",
      features: ["حماية", "دعم"],
    });
    expect(await shown("en")).toMatchObject({
      name: product.name,
      description: "An English description",
    });
  });

  it("replaces the texts on update, and a language emptied again falls back entirely", async () => {
    const { db } = app();
    const actorId = await adminId(app());
    const product = await created({ descriptionFr: "Première version", featuresFr: "Un\nDeux" });
    const updated = await updateProduct(db, {
      actorId,
      id: product.id,
      product: productForm({
        name: product.name,
        slug: product.slug,
        descriptionFr: "Deuxième version",
        nameAr: "اسم",
      }),
    });
    if (!updated.ok) throw new Error(updated.error);
    expect(updated.product.translations.fr).toEqual({
      name: "",
      description: "Deuxième version",
      features: [],
    });
    expect(updated.product.translations.ar.name).toBe("اسم");
    expect((await findActiveProduct(db, product.id, "fr"))?.description).toBe("Deuxième version");

    const emptied = await updateProduct(db, {
      actorId,
      id: product.id,
      product: productForm({ name: product.name, slug: product.slug }),
    });
    if (!emptied.ok) throw new Error(emptied.error);
    // No row is left for a language with nothing of its own.
    expect((await readTranslations(db, [product.id])).get(product.id)).toBeUndefined();
    expect(await findActiveProduct(db, product.id, "fr")).toEqual(
      await findActiveProduct(db, product.id, "en"),
    );
    // The audit entry keeps what the texts were.
    const audit = await latestRow(db, "audit_log", ["before"], {
      action: "product.update",
      target_id: String(product.id),
    });
    expect(audit.before).toContain("Deuxième version");
  });

  it("deletes a product's texts with it", async () => {
    const { db } = app();
    const actorId = await adminId(app());
    const product = await created({ nameFr: "À supprimer", nameAr: "للحذف" });
    await setProductStatus(db, { actorId, id: product.id, status: "hidden" });
    expect(await deleteProduct(db, { actorId, id: product.id })).toEqual({ ok: true });
    const left = await readRows(db, "product_texts", ["id"], { product_id: product.id });
    expect(left).toEqual([]);
    expect(await findProductForAdmin(db, product.id)).toBeUndefined();
  });

  it("refuses a language outside French and Arabic in the table itself", async () => {
    const { db } = app();
    const product = await created({});
    await expect(
      db
        .insertInto("product_texts")
        .values({ product_id: product.id, locale: "en", updated_at: new Date().toISOString() })
        .execute(),
    ).rejects.toThrow();
    await db
      .insertInto("product_texts")
      .values({ product_id: product.id, locale: "fr", updated_at: new Date().toISOString() })
      .execute();
    // One row per product and language.
    await expect(
      db
        .insertInto("product_texts")
        .values({ product_id: product.id, locale: "fr", updated_at: new Date().toISOString() })
        .execute(),
    ).rejects.toThrow();
  });

  it("seeds the translations of a catalogue from before them once, never over an admin's words", async () => {
    const { db } = app();
    const seeded = await db.selectFrom("product_texts").select("id").execute();
    // A database from before migration 0022: no texts, and one plan reworded in English meanwhile.
    await db.deleteFrom("product_texts").execute();
    await db
      .updateTable("products")
      .set({ description: "Our smallest MTA server" })
      .where("slug", "=", "mta-starter")
      .execute();
    try {
      await seedCatalogue(db);
      const bySlug = async (slug: string) => {
        const row = await readRow(db, "products", ["id"], { slug });
        return (await readTranslations(db, [Number(row.id)])).get(Number(row.id));
      };
      // The reworded plan gets none (a translation of the old text would be wrong); the others do.
      expect(await bySlug("mta-starter")).toBeUndefined();
      expect((await bySlug("mta-pro"))?.fr.name).toBe("MTA Pro");
      expect((await bySlug("samp-starter"))?.ar.name).toBe("باقة SAMP المبتدئة");

      // Once there are texts they are the admins': an emptied language is not brought back.
      const pro = await readRow(db, "products", ["id"], { slug: "mta-pro" });
      await db.deleteFrom("product_texts").where("product_id", "=", pro.id).execute();
      await seedCatalogue(db);
      expect(await bySlug("mta-pro")).toBeUndefined();
    } finally {
      await db
        .updateTable("products")
        .set({ description: mtaStarter.description })
        .where("slug", "=", "mta-starter")
        .execute();
      await db.deleteFrom("product_texts").execute();
      await seedCatalogue(db);
    }
    // Put back as the seed left them (the other tests' products have none of their own by now).
    expect((await db.selectFrom("product_texts").select("id").execute()).length).toBeGreaterThan(0);
    expect(seeded.length).toBeGreaterThan(0);
  });
});
