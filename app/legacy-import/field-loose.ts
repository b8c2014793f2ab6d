// Lenient readers: a value that cannot be read is null (or empty) and the importer uses its fallback,
// since no money depends on it.

/** A time as the old app wrote it (ISO text, or a millisecond timestamp like its ids). */
export function readLegacyDate(value: unknown): string | null {
  let ms: number;
  if (typeof value === "number" && Number.isFinite(value)) {
    ms = value < 1e11 ? value * 1000 : value;
  } else if (typeof value === "string" && value.trim()) {
    const text = value.trim();
    ms = /^\d{9,13}$/.test(text)
      ? Number(text) * (Number(text) < 1e11 ? 1000 : 1)
      : Date.parse(text);
  } else {
    return null;
  }
  if (!Number.isFinite(ms)) return null;
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  return year >= 1990 && year <= 2200 ? date.toISOString() : null;
}

/** Specs were numbers or text like "2 GB", "1 vCPU", "512MB": whole GB, cores or slots, else null. */
export function readSpecNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : null;
  if (typeof value !== "string") return null;
  const match = /^\s*(\d+(?:[.,]\d+)?)\s*([a-z]*)/i.exec(value);
  if (!match) return null;
  let n = Number(match[1]!.replace(",", "."));
  const unit = match[2]!.toLowerCase();
  if (unit === "mb") n = n / 1024;
  else if (unit === "tb") n = n * 1024;
  return n;
}

export function wholeSpec(value: unknown): number | null {
  const n = readSpecNumber(value);
  return n === null || n > 1_000_000 ? null : Math.max(n > 0 ? 1 : 0, Math.round(n));
}

export function readStringList(value: unknown): string[] {
  if (typeof value === "string")
    return value
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
  if (!Array.isArray(value)) return [];
  return value
    .map((item) =>
      typeof item === "string" || typeof item === "number" ? String(item).trim() : "",
    )
    .filter(Boolean)
    .map((item) => item.slice(0, 200));
}
