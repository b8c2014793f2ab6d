export const PRODUCT_TYPES = ["samp", "mta", "vps", "game"] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];
export const PRODUCT_CATEGORIES = ["Game Hosting", "VPS Hosting"] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];
export const PRODUCT_STATUSES = ["active", "hidden"] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** A catalogue product as the rest of the app sees it: money in cents, specs as numbers. */
export interface Product {
  id: number;
  slug: string;
  type: ProductType;
  category: ProductCategory;
  name: string;
  description: string;
  priceCents: number;
  features: string[];
  specs: {
    ramGb: number | null;
    storageGb: number | null;
    cpuCores: number | null;
    slots: number | null;
  };
  recommended: boolean;
  status: ProductStatus;
  position: number;
  /** Set when the product is made on the game panel (issue 27): its orders are checked for room. */
  provisioned?: true;
}

/**
 * The languages a product's texts can be written in besides English (ADR 19). English is the product's
 * own columns, required; each of these is optional and falls back to English field by field.
 */
export const PRODUCT_TEXT_LOCALES = ["fr", "ar"] as const;
export type ProductTextLocale = (typeof PRODUCT_TEXT_LOCALES)[number];

export function isProductTextLocale(locale: unknown): locale is ProductTextLocale {
  return typeof locale === "string" && (PRODUCT_TEXT_LOCALES as readonly string[]).includes(locale);
}

/** What a customer reads of a product, in one language. */
export interface ProductTexts {
  name: string;
  description: string;
  features: string[];
}

/** A product's texts in each language besides English, each field empty where it falls back. */
export type ProductTranslations = Record<ProductTextLocale, ProductTexts>;

export function emptyProductTexts(): ProductTexts {
  return { name: "", description: "", features: [] };
}

export function emptyTranslations(): ProductTranslations {
  return { fr: emptyProductTexts(), ar: emptyProductTexts() };
}

/** True when a language has nothing of its own (every field falls back to English). */
export function isEmptyTexts(texts: ProductTexts): boolean {
  return texts.name === "" && texts.description === "" && texts.features.length === 0;
}

/**
 * The texts a reader of `translated`'s language sees: each field of that language, or the English one
 * where it is empty (a name, a description, the whole feature list).
 */
export function textsWithFallback(
  english: ProductTexts,
  translated: ProductTexts | undefined,
): ProductTexts {
  if (!translated) return english;
  return {
    name: translated.name || english.name,
    description: translated.description || english.description,
    features: translated.features.length > 0 ? translated.features : english.features,
  };
}

export function categoryOf(type: ProductType): ProductCategory {
  return type === "vps" ? "VPS Hosting" : "Game Hosting";
}

/** Game types have player slots; a VPS does not. */
export function hasPlayerSlots(type: ProductType): boolean {
  return type !== "vps";
}

interface SeedProduct {
  slug: string;
  type: ProductType;
  name: string;
  description: string;
  priceCents: number;
  features: string[];
  ramGb: number;
  storageGb: number;
  cpuCores: number;
  slots: number | null;
  recommended?: boolean;
  /** The French and Arabic texts the plan is seeded with. */
  texts: ProductTranslations;
}

// A plan card lists its specs first ("5 GB NVMe storage", from storageGb), then these: none of them
// repeats a spec line (issue 21 removed "NVMe SSD storage", which stood beside the storage line).
const gameFeatures = ["DDoS protection", "Instant setup", "24/7 support"];
const vpsFeatures = ["10 Gbps uplink", "Full root access", "DDoS protection"];
const gameFeaturesFr = ["Protection anti-DDoS", "Installation instantanée", "Support 24h/24, 7j/7"];
const vpsFeaturesFr = ["Connexion 10 Gbit/s", "Accès root complet", "Protection anti-DDoS"];
const gameFeaturesAr = ["حماية من هجمات DDoS", "تفعيل فوري", "دعم فني 24/7"];
const vpsFeaturesAr = ["اتصال بسرعة 10 Gbps", "صلاحيات root كاملة", "حماية من هجمات DDoS"];

function seedTexts(
  fr: [name: string, description: string, features: string[]],
  ar: [name: string, description: string, features: string[]],
): ProductTranslations {
  return {
    fr: { name: fr[0], description: fr[1], features: fr[2] },
    ar: { name: ar[0], description: ar[1], features: ar[2] },
  };
}

/**
 * The twelve plans of spec section 9, seeded once. The spec's three seed services (SAMP Starter at 5,
 * MTA Professional at 15, VPS Premium at 25) clash with these and are not seeded (ADR 0009).
 * MTA Advanced has no vCPU count in the spec; it gets 1 vCPU like the plan below it.
 */
export const SEED_PRODUCTS: SeedProduct[] = [
  {
    slug: "samp-starter",
    type: "samp",
    name: "SAMP Starter",
    description: "A small SA-MP server to start your community.",
    priceCents: 250,
    features: gameFeatures,
    ramGb: 1,
    storageGb: 5,
    cpuCores: 1,
    slots: 150,
    texts: seedTexts(
      ["SAMP Essentiel", "Un petit serveur SA-MP pour lancer votre communauté.", gameFeaturesFr],
      ["باقة SAMP المبتدئة", "خادم SA-MP صغير لإطلاق مجتمعك.", gameFeaturesAr],
    ),
  },
  {
    slug: "samp-premium",
    type: "samp",
    name: "SAMP Premium",
    description: "Room for a busy roleplay or freeroam server.",
    priceCents: 450,
    features: gameFeatures,
    ramGb: 2,
    storageGb: 10,
    cpuCores: 1,
    slots: 500,
    recommended: true,
    texts: seedTexts(
      [
        "SAMP Premium",
        "De la place pour un serveur roleplay ou freeroam bien fréquenté.",
        gameFeaturesFr,
      ],
      ["باقة SAMP المميزة", "مساحة تتسع لخادم رول بلاي أو فري رووم يعج باللاعبين.", gameFeaturesAr],
    ),
  },
  {
    slug: "samp-ultimate",
    type: "samp",
    name: "SAMP Ultimate",
    description: "For the biggest SA-MP communities.",
    priceCents: 850,
    features: gameFeatures,
    ramGb: 4,
    storageGb: 15,
    cpuCores: 2,
    slots: 1000,
    texts: seedTexts(
      ["SAMP Ultime", "Pour les plus grandes communautés SA-MP.", gameFeaturesFr],
      ["باقة SAMP القصوى", "لأكبر مجتمعات SA-MP.", gameFeaturesAr],
    ),
  },
  {
    slug: "mta-starter",
    type: "mta",
    name: "MTA Starter",
    description: "A small MTA:SA server to start with.",
    priceCents: 300,
    features: gameFeatures,
    ramGb: 1,
    storageGb: 5,
    cpuCores: 1,
    slots: 75,
    texts: seedTexts(
      ["MTA Essentiel", "Un petit serveur MTA:SA pour bien démarrer.", gameFeaturesFr],
      ["باقة MTA المبتدئة", "خادم MTA:SA صغير لتبدأ به.", gameFeaturesAr],
    ),
  },
  {
    slug: "mta-advanced",
    type: "mta",
    name: "MTA Advanced",
    description: "More players and resources for a growing MTA server.",
    priceCents: 450,
    features: gameFeatures,
    ramGb: 2,
    storageGb: 10,
    cpuCores: 1,
    slots: 150,
    recommended: true,
    texts: seedTexts(
      [
        "MTA Avancé",
        "Plus de joueurs et de ressources pour un serveur MTA qui grandit.",
        gameFeaturesFr,
      ],
      ["باقة MTA المتقدمة", "مزيد من اللاعبين والموارد لخادم MTA في طور النمو.", gameFeaturesAr],
    ),
  },
  {
    slug: "mta-pro",
    type: "mta",
    name: "MTA Pro",
    description: "For large MTA:SA communities and heavy gamemodes.",
    priceCents: 950,
    features: gameFeatures,
    ramGb: 4,
    storageGb: 15,
    cpuCores: 2,
    slots: 200,
    texts: seedTexts(
      [
        "MTA Pro",
        "Pour les grandes communautés MTA:SA et les modes de jeu gourmands.",
        gameFeaturesFr,
      ],
      ["باقة MTA الاحترافية", "للمجتمعات الكبيرة على MTA:SA وأنماط اللعب الثقيلة.", gameFeaturesAr],
    ),
  },
  {
    slug: "vps-entry",
    type: "vps",
    name: "VPS Entry",
    description: "A virtual server for bots, websites and small game servers.",
    priceCents: 700,
    features: vpsFeatures,
    ramGb: 4,
    storageGb: 100,
    cpuCores: 3,
    slots: null,
    texts: seedTexts(
      [
        "VPS Essentiel",
        "Un serveur virtuel pour vos bots, sites web et petits serveurs de jeu.",
        vpsFeaturesFr,
      ],
      ["باقة VPS الأساسية", "خادم افتراضي للبوتات والمواقع وخوادم الألعاب الصغيرة.", vpsFeaturesAr],
    ),
  },
  {
    slug: "vps-business",
    type: "vps",
    name: "VPS Business",
    description: "More cores and memory for several servers at once.",
    priceCents: 1200,
    features: vpsFeatures,
    ramGb: 8,
    storageGb: 200,
    cpuCores: 5,
    slots: null,
    recommended: true,
    texts: seedTexts(
      [
        "VPS Business",
        "Plus de cœurs et de mémoire pour faire tourner plusieurs serveurs à la fois.",
        vpsFeaturesFr,
      ],
      ["باقة VPS للأعمال", "أنوية وذاكرة أكثر لتشغيل عدة خوادم في آن واحد.", vpsFeaturesAr],
    ),
  },
  {
    slug: "vps-premium",
    type: "vps",
    name: "VPS Premium",
    description: "Our largest VPS for demanding workloads.",
    priceCents: 2000,
    features: vpsFeatures,
    ramGb: 12,
    storageGb: 250,
    cpuCores: 6,
    slots: null,
    texts: seedTexts(
      [
        "VPS Premium",
        "Notre plus grand VPS pour les charges de travail exigeantes.",
        vpsFeaturesFr,
      ],
      ["باقة VPS المميزة", "أكبر خادم VPS لدينا للأحمال الثقيلة.", vpsFeaturesAr],
    ),
  },
  {
    slug: "game-basic",
    type: "game",
    name: "Game Basic",
    description: "A server for Minecraft, FiveM, Rust and other games.",
    priceCents: 399,
    features: gameFeatures,
    ramGb: 2,
    storageGb: 10,
    cpuCores: 1,
    slots: 50,
    texts: seedTexts(
      [
        "Jeux Essentiel",
        "Un serveur pour Minecraft, FiveM, Rust et d'autres jeux.",
        gameFeaturesFr,
      ],
      ["باقة الألعاب الأساسية", "خادم لـ Minecraft وFiveM وRust وألعاب أخرى.", gameFeaturesAr],
    ),
  },
  {
    slug: "game-advanced",
    type: "game",
    name: "Game Advanced",
    description: "More memory and players for modded servers.",
    priceCents: 799,
    features: gameFeatures,
    ramGb: 4,
    storageGb: 20,
    cpuCores: 2,
    slots: 100,
    recommended: true,
    texts: seedTexts(
      ["Jeux Avancé", "Plus de mémoire et de joueurs pour les serveurs moddés.", gameFeaturesFr],
      ["باقة الألعاب المتقدمة", "ذاكرة أكبر ولاعبون أكثر للخوادم المعدّلة.", gameFeaturesAr],
    ),
  },
  {
    slug: "game-pro",
    type: "game",
    name: "Game Pro",
    description: "For large communities and heavy mods.",
    priceCents: 1499,
    features: gameFeatures,
    ramGb: 8,
    storageGb: 50,
    cpuCores: 4,
    slots: 250,
    texts: seedTexts(
      ["Jeux Pro", "Pour les grandes communautés et les mods lourds.", gameFeaturesFr],
      ["باقة الألعاب الاحترافية", "للمجتمعات الكبيرة والتعديلات الثقيلة.", gameFeaturesAr],
    ),
  },
];
