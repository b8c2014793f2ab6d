import type { ProductType } from "~/domain/catalogue/catalogue";
import { lower } from "./map-values";

/** The old type (samp, mta, vps), else the category, else the name; anything else is a game server. */
export function legacyProductType(
  type: string | null,
  category: string | null,
  name: string,
): ProductType {
  const word = lower(type).replace(/[^a-z]/g, "");
  if (word === "samp") return "samp";
  if (word === "mta" || word === "mtasa") return "mta";
  if (word === "vps") return "vps";
  if (["game", "games", "gaming", "gamehosting"].includes(word)) return "game";
  if (lower(category).includes("vps")) return "vps";
  const title = lower(name);
  if (/\bsa-?mp\b/.test(title)) return "samp";
  if (/\bmta\b/.test(title)) return "mta";
  if (/\bvps\b/.test(title)) return "vps";
  return "game";
}

/** An order's server type when the old app wrote one we know, else null (the product's type is used). */
export function optionalProductType(type: string | null): ProductType | null {
  if (!type) return null;
  const word = lower(type).replace(/[^a-z]/g, "");
  return word === "samp" || word === "mta" || word === "vps" || word === "game"
    ? word
    : word === "mtasa"
      ? "mta"
      : null;
}
