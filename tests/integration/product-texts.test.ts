import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import type { Product } from "~/domain/catalogue/catalogue";
import { seedCatalogue } from "~/domain/catalogue/catalogue.server";
import * as home from "~/routes/home";
import * as order from "~/routes/order";
import * as services from "~/routes/site/services";
import en from "~/i18n/locales/en/admin-catalogue.json";
import { appFetch } from "../support/app-harness";
import { contextFor, cookieHeader, routeArgs, settle } from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

type Loader = { loader: (args: never) => unknown };

// A product's texts per language through the routes: /admin/products saves a product's French and
// Arabic texts (or says why not), and the storefront's pages and the order form show the reader's
// language, English where the admin left it empty, as the server renders them for visitors (kept pages
// included, ADR 15).
describeEachDatabase("product texts on the pages", (app) => {
  async function adminCookie() {
    const result = await signIn(app(), TEST_ADMIN, { ip: "10.62.0.1" });
    if (!result.ok) throw new Error("sign in failed");
    return cookieHeader(result.setCookies);
  }

  async function loaderData(module: Loader, path: string, language: string, params = {}) {
    return (await settle(async () =>
      module.loader(
        routeArgs({
          request: new Request(`http://localhost${path}`),
          context: await contextFor(app(), { acceptLanguage: language }),
          params,
        }),
      ),
    )) as Record<string, unknown>;
  }

  async function mtaStarter() {
    return app()
      .db.selectFrom("products")
      .selectAll()
      .where("slug", "=", "mta-starter")
      .executeTakeFirstOrThrow();
  }

  /** The editor's fields for a product as it is, with some changed. */
  function formOf(product: Awaited<ReturnType<typeof mtaStarter>>, fields: Record<string, string>) {
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
      ramGb: String(product.ram_gb ?? ""),
      storageGb: String(product.storage_gb ?? ""),
      cpuCores: String(product.cpu_cores ?? ""),
      slots: String(product.slots ?? ""),
      ...fields,
    };
  }

  it("serves the plan cards, the home page and the order form in the reader's language", async () => {
    const fetch = appFetch(app());
    const french = await (await fetch("/services/mta?lang=fr")).text();
    expect(french).toContain("Un petit serveur MTA:SA pour bien démarrer.");
    expect(french).toContain("Support 24h/24, 7j/7");
    expect(french).not.toContain("A small MTA:SA server to start with.");
    const arabic = await (await fetch("/services/mta?lang=ar")).text();
    expect(arabic).toContain("خادم MTA:SA صغير لتبدأ به.");
    expect(arabic).toContain("حماية من هجمات DDoS");
    expect(arabic).not.toContain("DDoS protection");
    const english = await (await fetch("/services/mta")).text();
    expect(english).toContain("A small MTA:SA server to start with.");
    expect(english).not.toContain("Support 24h/24, 7j/7");

    const homePlans = (await loaderData(home, "/", "ar")).plans as Product[];
    expect(homePlans.map((plan) => plan.name)).toEqual([
      "باقة SAMP المبتدئة",
      "باقة SAMP المميزة",
      "باقة SAMP القصوى",
    ]);
    const orderProducts = (await loaderData(order, "/order", "fr")).products as Product[];
    expect(orderProducts.find((p) => p.slug === "mta-advanced")?.name).toBe("MTA Avancé");
    const gamePlans = (await loaderData(services, "/game-hosting", "fr")).plans as Product[];
    expect(gamePlans.map((plan) => plan.name)).toContain("Jeux Pro");
  });

  it("saves an admin's French description and shows it on the French page at the next request", async () => {
    const fetch = appFetch(app());
    const cookie = await adminCookie();
    const before = await mtaStarter();
    const path = `/services/mta?lang=fr&unique=${randomUUID()}`;
    // Kept for visitors now (ADR 15): the next request must still show the new text.
    expect(await (await fetch(path, { nonce: "b25l" })).text()).toContain(
      "Un petit serveur MTA:SA pour bien démarrer.",
    );
    const description = `Le serveur MTA idéal pour débuter ${randomUUID().slice(0, 8)}`;
    try {
      const saved = await fetch("/admin/products", {
        cookie,
        form: formOf(before, {
          nameFr: "MTA Essentiel",
          descriptionFr: description,
          featuresFr: "",
          nameAr: "باقة MTA المبتدئة",
          descriptionAr: "",
          featuresAr: "حماية من هجمات DDoS",
        }),
      });
      expect(saved.status).toBe(302);
      expect(saved.headers.get("location")).toBe(
        `/admin/products?notice=updated#product-${before.id}`,
      );
      const french = await (await fetch(path, { nonce: "dHdv" })).text();
      expect(french).toContain(description);
      // The French features were emptied: the English ones show.
      expect(french).toContain("24/7 support");
      const arabic = await (await fetch("/services/mta?lang=ar", { nonce: "dGhyZWU=" })).text();
      // The Arabic description was emptied: the English one shows, with the Arabic features.
      expect(arabic).toContain("A small MTA:SA server to start with.");
      expect(arabic).toContain("حماية من هجمات DDoS");
      // English is untouched.
      expect(await (await fetch("/services/mta", { nonce: "Zm91cg==" })).text()).not.toContain(
        description,
      );
      // The editor opens with what was saved.
      const editor = await (
        await fetch(`/admin/products?edit=${before.id}`, { cookie, nonce: "Zml2ZQ==" })
      ).text();
      expect(editor).toContain(description);
      expect(editor).toMatch(/<textarea[^>]*lang="ar"[^>]*dir="rtl"/);
    } finally {
      // The seed's texts back (the seed fills an empty table, English being unchanged).
      await app().db.deleteFrom("product_texts").execute();
      await seedCatalogue(app().db);
    }
  });

  it("refuses translated fields over the English limits, each with its language's message", async () => {
    const fetch = appFetch(app());
    const cookie = await adminCookie();
    const product = await mtaStarter();
    const cases: [Record<string, string>, string, string][] = [
      [{ nameFr: "n".repeat(81) }, "nameFr", en.products.texts.errors.frNameTooLong],
      [{ nameAr: "ا".repeat(81) }, "nameAr", en.products.texts.errors.arNameTooLong],
      [
        { descriptionFr: "d".repeat(501) },
        "descriptionFr",
        en.products.texts.errors.frDescriptionTooLong,
      ],
      [
        { descriptionAr: "و".repeat(501) },
        "descriptionAr",
        en.products.texts.errors.arDescriptionTooLong,
      ],
      [
        { featuresFr: Array.from({ length: 13 }, (_, i) => `Ligne ${i}`).join("\n") },
        "featuresFr",
        en.products.texts.errors.frTooManyFeatures,
      ],
      [
        { featuresAr: `قصيرة\n${"م".repeat(121)}` },
        "featuresAr",
        en.products.texts.errors.arFeatureTooLong,
      ],
    ];
    const textsBefore = await app().db.selectFrom("product_texts").selectAll().execute();
    for (const [fields, field, text] of cases) {
      // The editor posts to its own address (the form has no action).
      const answer = await fetch(`/admin/products?edit=${product.id}`, {
        cookie,
        form: formOf(product, fields),
      });
      expect(answer.status, field).toBe(400);
      const html = await answer.text();
      // The message under the field, and the field marked invalid and pointing at it.
      const error = new RegExp(`<p[^>]*id="product-${field}-error"[^>]*>${text}</p>`);
      expect(error.test(html), `${field}: ${text}`).toBe(true);
      const control = new RegExp(`id="product-${field}"[^>]*aria-invalid="true"`);
      expect(control.test(html), field).toBe(true);
    }
    // Exactly at the limits is accepted.
    const atLimits = await fetch(`/admin/products?edit=${product.id}`, {
      cookie,
      form: formOf(product, {
        nameFr: "n".repeat(80),
        descriptionAr: "و".repeat(500),
        featuresFr: Array.from({ length: 12 }, (_, i) => `${i}`.padEnd(120, "x")).join("\n"),
      }),
    });
    expect(atLimits.status).toBe(302);
    // Put back as they were.
    await app().db.deleteFrom("product_texts").where("product_id", "=", product.id).execute();
    const own = textsBefore.filter((row) => Number(row.product_id) === Number(product.id));
    if (own.length > 0)
      await app()
        .db.insertInto("product_texts")
        .values(own.map(({ id: _id, ...row }) => row))
        .execute();
  });
});
