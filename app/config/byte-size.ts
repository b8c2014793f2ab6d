const UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  kib: 1024,
  kb: 1024,
  mib: 1024 ** 2,
  mb: 1024 ** 2,
};

/**
 * A size in bytes as a setting spells it: `65536`, `64KiB` or `1MiB` (KB and MB are read as KiB and
 * MiB, as most tools do). Returns null when the text is not such a size.
 */
export function parseByteSize(raw: string): number | null {
  const match = /^(\d{1,12})\s*([a-z]*)$/i.exec(raw.trim());
  if (!match) return null;
  const unit = UNITS[match[2]!.toLowerCase()];
  return unit === undefined ? null : Number(match[1]) * unit;
}
