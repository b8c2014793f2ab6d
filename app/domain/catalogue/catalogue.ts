import { z } from "~/lib/zod";

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
}

export function categoryOf(type: ProductType): ProductCategory {
  return type === "vps" ? "VPS Hosting" : "Game Hosting";
}

/** Game types have player slots; a VPS does not. */
export function hasPlayerSlots(type: ProductType): boolean {
  return type !== "vps";
}

export const productTypeSchema = z.enum(PRODUCT_TYPES);

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
}

const gameFeatures = ["DDoS protection", "NVMe SSD storage", "Instant setup", "24/7 support"];
const vpsFeatures = ["10 Gbps uplink", "Full root access", "DDoS protection", "NVMe SSD storage"];

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
  },
];
