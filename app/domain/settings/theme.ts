// Colour arithmetic for the theme settings (WCAG 2.x relative luminance and contrast ratio). Pure, so the
// server (CSS variables in the root layout, validation) and the admin's live preview use the same rules.

export const WHITE = "#ffffff";
/** The site's dark text colour (Tailwind slate-900, --color-foreground in app.css). */
export const DARK_TEXT = "#0f172a";
/** WCAG AA for normal text. */
export const READABLE_CONTRAST = 4.5;

const HEX = /^#([0-9a-f]{6})$/i;

export function isHexColor(value: string): boolean {
  return HEX.test(value);
}

function channels(hex: string): [number, number, number] {
  const match = HEX.exec(hex);
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  const n = Number.parseInt(match[1]!, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;
}

export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (hi + 0.05) / (lo + 0.05);
}

/** White or the dark text colour, whichever reads better on `background`. */
export function readableForeground(background: string): string {
  return contrastRatio(background, WHITE) >= contrastRatio(background, DARK_TEXT)
    ? WHITE
    : DARK_TEXT;
}

/**
 * The colour itself when it is readable as text on a white page; otherwise the same hue darkened just
 * enough (mixed toward black) to reach 4.5:1, so links in a light brand colour stay legible.
 */
export function readableOnWhite(hex: string): string {
  if (contrastRatio(hex, WHITE) >= READABLE_CONTRAST) return hex.toLowerCase();
  const base = channels(hex);
  for (let step = 1; step <= 20; step++) {
    const keep = 1 - step * 0.05;
    const candidate = toHex(base.map((c) => c * keep) as [number, number, number]);
    if (contrastRatio(candidate, WHITE) >= READABLE_CONTRAST) return candidate;
  }
  return DARK_TEXT;
}

/** White text on the secondary colour (footer, page heroes, admin sidebar) must stay readable. */
export function secondaryKeepsWhiteTextReadable(hex: string): boolean {
  return isHexColor(hex) && contrastRatio(hex, WHITE) >= READABLE_CONTRAST;
}

/**
 * The CSS custom properties the root layout sets on <html>; app.css maps them onto Tailwind's colours
 * (bg-primary, text-primary-foreground, text-primary for links, ...).
 */
export function themeVariables(theme: {
  primaryColor: string;
  secondaryColor: string;
  accentColor: string;
}): Record<string, string> {
  return {
    "--brand-primary": theme.primaryColor,
    "--brand-primary-foreground": readableForeground(theme.primaryColor),
    "--brand-primary-text": readableOnWhite(theme.primaryColor),
    "--brand-secondary": theme.secondaryColor,
    "--brand-secondary-foreground": readableForeground(theme.secondaryColor),
    "--brand-accent": theme.accentColor,
    "--brand-accent-foreground": readableForeground(theme.accentColor),
  };
}
