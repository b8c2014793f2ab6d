import { describe, expect, it } from "vitest";
import { expectRefusals, firstErrorsOf } from "../../../tests/support/form-errors";
import {
  canDeleteProduct,
  firstFreeSlug,
  parseFeatureLines,
  slugify,
  type AdminProduct,
} from "./catalogue-admin";
import { productActionSchema, productListQuerySchema } from "./catalogue-admin.schemas";

const valid = {
  intent: "create",
  name: "SAMP Mega",
  slug: "",
  type: "samp",
  category: "",
  description: "  Big server  ",
  price: "2,5",
  features: "DDoS protection\n\n  NVMe  \nDDoS protection\n",
  ramGb: "8",
  storageGb: "",
  cpuCores: "4",
  slots: "2000",
  recommended: "on",
  status: "",
};

/** The form as posted with `change` over the valid one, as the page's schema reads it. */
const postedWith = (change: Record<string, string | undefined>) =>
  productActionSchema.parse({ ...valid, ...change });

describe("the product form", () => {
  it("reads a product ready to save: cents, lines, specs, the type's category", () => {
    const parsed = productActionSchema.parse(valid);
    expect(parsed).toEqual({
      intent: "create",
      product: {
        name: "SAMP Mega",
        slug: "",
        type: "samp",
        category: "Game Hosting",
        description: "Big server",
        priceCents: 250,
        features: ["DDoS protection", "NVMe"],
        specs: { ramGb: 8, storageGb: null, cpuCores: 4, slots: 2000 },
        recommended: true,
        // Not ticked: its orders wait for an admin.
        activateWhenPaid: false,
        status: "active",
        // No French or Arabic field sent: every language falls back to English.
        translations: {
          fr: { name: "", description: "", features: [] },
          ar: { name: "", description: "", features: [] },
        },
        // No provisioning field sent: set up by hand, as every product was before the game panel.
        provisioning: { provisioner: "none" },
      },
    });
    const translated = postedWith({
      nameFr: "  SAMP Méga ",
      descriptionFr: "Gros serveur",
      featuresFr: "Anti-DDoS\n\nAnti-DDoS\n NVMe ",
      descriptionAr: "  خادم كبير  ",
    });
    expect(translated.intent === "create" && translated.product.translations).toEqual({
      fr: { name: "SAMP Méga", description: "Gros serveur", features: ["Anti-DDoS", "NVMe"] },
      ar: { name: "", description: "خادم كبير", features: [] },
    });
    const vps = postedWith({
      intent: "update",
      id: "7",
      type: "vps",
      slots: "",
      slug: "My-VPS",
      price: "4.99",
      status: "hidden",
      recommended: undefined,
    });
    expect(vps).toMatchObject({
      intent: "update",
      id: 7,
      product: {
        slug: "my-vps",
        category: "VPS Hosting",
        priceCents: 499,
        status: "hidden",
        recommended: false,
      },
    });
    expect(postedWith({ activateWhenPaid: "on" })).toMatchObject({
      product: { activateWhenPaid: true },
    });
  });

  it("refuses bad prices, specs and slugs with a message each", () => {
    expectRefusals(productActionSchema, valid, [
      [{ price: "-1" }, { price: "admin-catalogue.money.negative" }],
      [{ price: "4.999" }, { price: "admin-catalogue.money.decimals" }],
      [{ price: "1e6" }, { price: "admin-catalogue.money.invalid" }],
      [{ price: "10000.01" }, { price: "admin-catalogue.money.tooLarge" }],
      [{ price: "0" }, { price: "admin-catalogue.products.errors.priceZero" }],
      [{ price: "" }, { price: "admin-catalogue.money.required" }],
      [
        { ramGb: "1.5", cpuCores: "0", slots: "-3" },
        {
          ramGb: "admin-catalogue.products.errors.ramGbInvalid",
          cpuCores: "admin-catalogue.products.errors.cpuCoresInvalid",
          slots: "admin-catalogue.products.errors.slotsInvalid",
        },
      ],
      [{ type: "vps" }, { slots: "admin-catalogue.products.errors.slotsVps" }],
      [{ type: "minecraft" }, { type: "admin-catalogue.products.errors.typeInvalid" }],
      [{ slug: "no spaces" }, { slug: "admin-catalogue.products.errors.slugInvalid" }],
      [{ slug: "-x-" }, { slug: "admin-catalogue.products.errors.slugInvalid" }],
      [{ name: "   " }, { name: "admin-catalogue.products.errors.nameRequired" }],
      [
        { features: Array.from({ length: 13 }, (_, i) => `f${i}`).join("\n") },
        { features: "admin-catalogue.products.errors.tooManyFeatures" },
      ],
    ]);
    // Posts other than a save: a row's move, or no known intent.
    expect(
      firstErrorsOf(productActionSchema, { intent: "move", id: "1", direction: "sideways" }),
    ).toEqual({ direction: "admin-catalogue.products.errors.notFound" });
    expect(firstErrorsOf(productActionSchema, { intent: "explode", id: "1" })).toEqual({
      intent: "admin-catalogue.errors.unknownAction",
    });
  });

  it("reads the provisioning block from the same post, its checkboxes as lists", () => {
    const pterodactyl = {
      provisioner: "pterodactyl",
      nestId: "2",
      eggId: "3",
      dockerImage: "ghcr.io/parkervcp/games:mta",
      startup: "./mta-server64 --port {{SERVER_PORT}} --httpport {{SERVER_WEBPORT}}",
      memoryMb: "2048",
      swapMb: "",
      diskMb: "10240",
      cpuPercent: "100",
      ioWeight: "",
      databases: "",
      backups: "2",
      allocations: "",
      portLayout: "mta",
      httpPortVariable: "SERVER_WEBPORT",
      slotsVariable: "",
      "location-1": "on",
      "location-3": "on",
      "node-2": "on",
      "env.SERVER_WEBPORT": " 22005 ",
    };
    const parsed = postedWith(pterodactyl);
    expect(parsed.intent === "create" && parsed.product.provisioning).toEqual({
      provisioner: "pterodactyl",
      nestId: 2,
      eggId: 3,
      dockerImage: "ghcr.io/parkervcp/games:mta",
      startup: "./mta-server64 --port {{SERVER_PORT}} --httpport {{SERVER_WEBPORT}}",
      memoryMb: 2048,
      swapMb: 0,
      diskMb: 10240,
      cpuPercent: 100,
      ioWeight: 500,
      databases: 0,
      backups: 2,
      allocations: 3,
      portLayout: "mta",
      locationIds: [1, 3],
      nodeIds: [2],
      environment: { SERVER_WEBPORT: "22005" },
      slotsVariable: null,
      httpPortVariable: "SERVER_WEBPORT",
    });
    // "None" ignores every other field, even broken ones.
    const none = postedWith({ ...pterodactyl, provisioner: "none", memoryMb: "lots" });
    expect(none.intent === "create" && none.product.provisioning).toEqual({ provisioner: "none" });
    // Each refusal is on its own field, beside the product's own.
    expectRefusals(productActionSchema, { ...valid, ...pterodactyl }, [
      [
        { memoryMb: "0", "env.BAD NAME": "x", "location-x": "on", price: "0" },
        {
          memoryMb: "admin-catalogue.products.provisioning.errors.memoryMbInvalid",
          "env.BAD NAME": "admin-catalogue.products.provisioning.errors.envNameInvalid",
          locationIds: "admin-catalogue.products.provisioning.errors.locationIdsInvalid",
          price: "admin-catalogue.products.errors.priceZero",
        },
      ],
      [
        { httpPortVariable: "", allocations: "2" },
        {
          allocations: "admin-catalogue.products.provisioning.errors.allocationsMta",
          httpPortVariable: "admin-catalogue.products.provisioning.errors.httpPortVariableRequired",
        },
      ],
      [
        { provisioner: "ansible" },
        { provisioner: "admin-catalogue.products.provisioning.errors.provisionerInvalid" },
      ],
    ]);
  });

  it("makes slugs and feature lists", () => {
    expect(slugify("SAMP Starter 2")).toBe("samp-starter-2");
    expect(slugify("Éco  Serveur!!")).toBe("eco-serveur");
    expect(slugify("خادم")).toBe("product");
    expect(slugify("x".repeat(100))).toHaveLength(60);
    expect(parseFeatureLines("a\r\nb\n\n a \n")).toEqual(["a", "b"]);
  });

  it("numbers a slug that is taken, cut short enough for its number and with no dash at the cut", async () => {
    const long = `${"a".repeat(57)}-bc`;
    const taken = new Set(["samp", "samp-2", long]);
    const isTaken = async (slug: string) => taken.has(slug);
    expect(await firstFreeSlug("mta", isTaken)).toBe("mta");
    expect(await firstFreeSlug("samp", isTaken)).toBe("samp-3");
    expect(await firstFreeSlug(long, isTaken)).toBe(`${"a".repeat(57)}-2`);
  });

  it("offers delete only for a hidden product nothing refers to", () => {
    const base = {
      status: "hidden",
      orderCount: 0,
      serviceCount: 0,
      voucherCount: 0,
    } as AdminProduct;
    expect(canDeleteProduct(base)).toBe(true);
    expect(canDeleteProduct({ ...base, status: "active" })).toBe(false);
    expect(canDeleteProduct({ ...base, orderCount: 1 })).toBe(false);
    expect(canDeleteProduct({ ...base, serviceCount: 1 })).toBe(false);
    expect(canDeleteProduct({ ...base, voucherCount: 1 })).toBe(false);
  });

  it("reads the list's address and ignores what does not parse", () => {
    expect(productListQuerySchema.parse({ type: "vps", edit: "12", notice: "created" })).toEqual({
      type: "vps",
      edit: 12,
      notice: "created",
    });
    expect(
      productListQuerySchema.parse({ type: "x", status: "gone", edit: "-1", notice: "<b>" }),
    ).toEqual({});
    expect(productListQuerySchema.parse({ edit: "new" })).toEqual({ edit: "new" });
    // The egg chosen in the editor, before the product is saved with it.
    expect(productListQuerySchema.parse({ edit: "4", eggId: "3" })).toEqual({ edit: 4, eggId: 3 });
    expect(productListQuerySchema.parse({ edit: "4", eggId: "three" })).toEqual({ edit: 4 });
  });
});
