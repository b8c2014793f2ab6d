/**
 * The catalogue's seed: the plans `seedCatalogue` inserts once (catalogue.server.ts), with their French
 * and Arabic texts. Server-only, so the plan table in three languages never reaches the browser's bundle.
 */
import type { ProductTextLocale, ProductTranslations, ProductType } from "./catalogue";

/** A seeded plan's name and description in one language. */
type SeedWords = [name: string, description: string];

/** A plan of the seed as written below; `seedProduct` gives it its kind's features in each language. */
interface SeedPlan {
  slug: string;
  type: ProductType;
  priceCents: number;
  specs: { ramGb: number; storageGb: number; cpuCores: number; slots: number | null };
  recommended?: boolean;
  en: SeedWords;
  fr: SeedWords;
  ar: SeedWords;
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
// repeats a spec line ("NVMe SSD storage", which stood beside the storage line, went; migration 0024), nor
// promises a setup the plan may not keep: the card says "Instant setup" or "Set up after approval" from the
// product's activate_when_paid ("Instant setup" went from these lists; migration 0048). Every game plan lists
// the same two, every VPS its own three.
const SEED_FEATURES: Record<"game" | "vps", Record<"en" | ProductTextLocale, string[]>> = {
  game: {
    en: ["DDoS protection", "24/7 support"],
    fr: ["Protection anti-DDoS", "Support 24h/24, 7j/7"],
    ar: ["حماية من هجمات DDoS", "دعم فني 24/7"],
  },
  vps: {
    en: ["10 Gbps uplink", "Full root access", "DDoS protection"],
    fr: ["Connexion 10 Gbit/s", "Accès root complet", "Protection anti-DDoS"],
    ar: ["اتصال بسرعة 10 Gbps", "صلاحيات root كاملة", "حماية من هجمات DDoS"],
  },
};

function seedProduct({ en, fr, ar, specs, ...plan }: SeedPlan): SeedProduct {
  const features = SEED_FEATURES[plan.type === "vps" ? "vps" : "game"];
  return {
    ...plan,
    name: en[0],
    description: en[1],
    features: features.en,
    ...specs,
    texts: {
      fr: { name: fr[0], description: fr[1], features: features.fr },
      ar: { name: ar[0], description: ar[1], features: features.ar },
    },
  };
}

/**
 * The twelve plans of spec section 9, seeded once. The spec's three seed services (SAMP Starter at 5,
 * MTA Professional at 15, VPS Premium at 25) clash with these and are not seeded (ADR 0009).
 * MTA Advanced has no vCPU count in the spec; it gets 1 vCPU like the plan below it.
 */
const SEED_PLANS: SeedPlan[] = [
  {
    slug: "samp-starter",
    type: "samp",
    priceCents: 250,
    specs: { ramGb: 1, storageGb: 5, cpuCores: 1, slots: 150 },
    en: ["SAMP Starter", "A small SA-MP server to start your community."],
    fr: ["SAMP Essentiel", "Un petit serveur SA-MP pour lancer votre communauté."],
    ar: ["باقة SAMP المبتدئة", "خادم SA-MP صغير لإطلاق مجتمعك."],
  },
  {
    slug: "samp-premium",
    type: "samp",
    priceCents: 450,
    specs: { ramGb: 2, storageGb: 10, cpuCores: 1, slots: 500 },
    recommended: true,
    en: ["SAMP Premium", "Room for a busy roleplay or freeroam server."],
    fr: ["SAMP Premium", "De la place pour un serveur roleplay ou freeroam bien fréquenté."],
    ar: ["باقة SAMP المميزة", "مساحة تتسع لخادم رول بلاي أو فري رووم يعج باللاعبين."],
  },
  {
    slug: "samp-ultimate",
    type: "samp",
    priceCents: 850,
    specs: { ramGb: 4, storageGb: 15, cpuCores: 2, slots: 1000 },
    en: ["SAMP Ultimate", "For the biggest SA-MP communities."],
    fr: ["SAMP Ultime", "Pour les plus grandes communautés SA-MP."],
    ar: ["باقة SAMP القصوى", "لأكبر مجتمعات SA-MP."],
  },
  {
    slug: "mta-starter",
    type: "mta",
    priceCents: 300,
    specs: { ramGb: 1, storageGb: 5, cpuCores: 1, slots: 75 },
    en: ["MTA Starter", "A small MTA:SA server to start with."],
    fr: ["MTA Essentiel", "Un petit serveur MTA:SA pour bien démarrer."],
    ar: ["باقة MTA المبتدئة", "خادم MTA:SA صغير لتبدأ به."],
  },
  {
    slug: "mta-advanced",
    type: "mta",
    priceCents: 450,
    specs: { ramGb: 2, storageGb: 10, cpuCores: 1, slots: 150 },
    recommended: true,
    en: ["MTA Advanced", "More players and resources for a growing MTA server."],
    fr: ["MTA Avancé", "Plus de joueurs et de ressources pour un serveur MTA qui grandit."],
    ar: ["باقة MTA المتقدمة", "مزيد من اللاعبين والموارد لخادم MTA في طور النمو."],
  },
  {
    slug: "mta-pro",
    type: "mta",
    priceCents: 950,
    specs: { ramGb: 4, storageGb: 15, cpuCores: 2, slots: 200 },
    en: ["MTA Pro", "For large MTA:SA communities and heavy gamemodes."],
    fr: ["MTA Pro", "Pour les grandes communautés MTA:SA et les modes de jeu gourmands."],
    ar: ["باقة MTA الاحترافية", "للمجتمعات الكبيرة على MTA:SA وأنماط اللعب الثقيلة."],
  },
  {
    slug: "vps-entry",
    type: "vps",
    priceCents: 700,
    specs: { ramGb: 4, storageGb: 100, cpuCores: 3, slots: null },
    en: ["VPS Entry", "A virtual server for bots, websites and small game servers."],
    fr: ["VPS Essentiel", "Un serveur virtuel pour vos bots, sites web et petits serveurs de jeu."],
    ar: ["باقة VPS الأساسية", "خادم افتراضي للبوتات والمواقع وخوادم الألعاب الصغيرة."],
  },
  {
    slug: "vps-business",
    type: "vps",
    priceCents: 1200,
    specs: { ramGb: 8, storageGb: 200, cpuCores: 5, slots: null },
    recommended: true,
    en: ["VPS Business", "More cores and memory for several servers at once."],
    fr: [
      "VPS Business",
      "Plus de cœurs et de mémoire pour faire tourner plusieurs serveurs à la fois.",
    ],
    ar: ["باقة VPS للأعمال", "أنوية وذاكرة أكثر لتشغيل عدة خوادم في آن واحد."],
  },
  {
    slug: "vps-premium",
    type: "vps",
    priceCents: 2000,
    specs: { ramGb: 12, storageGb: 250, cpuCores: 6, slots: null },
    en: ["VPS Premium", "Our largest VPS for demanding workloads."],
    fr: ["VPS Premium", "Notre plus grand VPS pour les charges de travail exigeantes."],
    ar: ["باقة VPS المميزة", "أكبر خادم VPS لدينا للأحمال الثقيلة."],
  },
  {
    slug: "game-basic",
    type: "game",
    priceCents: 399,
    specs: { ramGb: 2, storageGb: 10, cpuCores: 1, slots: 50 },
    en: ["Game Basic", "A server for Minecraft, FiveM, Rust and other games."],
    fr: ["Jeux Essentiel", "Un serveur pour Minecraft, FiveM, Rust et d'autres jeux."],
    ar: ["باقة الألعاب الأساسية", "خادم لـ Minecraft وFiveM وRust وألعاب أخرى."],
  },
  {
    slug: "game-advanced",
    type: "game",
    priceCents: 799,
    specs: { ramGb: 4, storageGb: 20, cpuCores: 2, slots: 100 },
    recommended: true,
    en: ["Game Advanced", "More memory and players for modded servers."],
    fr: ["Jeux Avancé", "Plus de mémoire et de joueurs pour les serveurs moddés."],
    ar: ["باقة الألعاب المتقدمة", "ذاكرة أكبر ولاعبون أكثر للخوادم المعدّلة."],
  },
  {
    slug: "game-pro",
    type: "game",
    priceCents: 1499,
    specs: { ramGb: 8, storageGb: 50, cpuCores: 4, slots: 250 },
    en: ["Game Pro", "For large communities and heavy mods."],
    fr: ["Jeux Pro", "Pour les grandes communautés et les mods lourds."],
    ar: ["باقة الألعاب الاحترافية", "للمجتمعات الكبيرة والتعديلات الثقيلة."],
  },
];

/** The plans as `seedCatalogue` inserts them (catalogue.server.ts). */
export const SEED_PRODUCTS: SeedProduct[] = SEED_PLANS.map(seedProduct);
