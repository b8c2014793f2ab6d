/**
 * A short, readable form of a User-Agent header for lists of sessions: the browser (with its major
 * version) and the operating system, e.g. { browser: "Firefox 126", os: "Windows" }. Pure and small on
 * purpose: it recognises the browsers people use, and says null for a part it does not recognise rather
 * than guessing. The full header stays available to show on request.
 */
export interface DeviceSummary {
  browser: string | null;
  os: string | null;
}

/** Longer than any real header we expect; anything beyond is not worth scanning. */
const MAX_SCANNED = 1024;

// Order matters: Edge, Opera, Samsung Internet, Yandex and Vivaldi all also say "Chrome/", and Chrome
// says "Safari/"; the first match wins.
const BROWSERS: { name: string; pattern: RegExp }[] = [
  { name: "Edge", pattern: /\bEdg(?:e|A|iOS)?\/(\d+)/ },
  { name: "Opera", pattern: /\b(?:OPR|OPiOS|Opera)\/(\d+)/ },
  { name: "Samsung Internet", pattern: /\bSamsungBrowser\/(\d+)/ },
  { name: "Yandex", pattern: /\bYaBrowser\/(\d+)/ },
  { name: "Vivaldi", pattern: /\bVivaldi\/(\d+)/ },
  { name: "Firefox", pattern: /\b(?:Firefox|FxiOS)\/(\d+)/ },
  { name: "Chrome", pattern: /\b(?:HeadlessChrome|Chrome|CriOS)\/(\d+)/ },
  { name: "Safari", pattern: /\bVersion\/(\d+)(?:\.\d+)*(?: Mobile\/\w+)? Safari\// },
  { name: "curl", pattern: /^curl\/(\d+)/ },
];

function androidVersion(ua: string): string {
  const match = /\bAndroid (\d+)/.exec(ua);
  return match ? `Android ${match[1]}` : "Android";
}

function iosVersion(ua: string): string {
  const match = /\b(?:iPhone )?OS (\d+)[_\d]* like Mac OS X/.exec(ua);
  return match ? `iOS ${match[1]}` : "iOS";
}

function operatingSystem(ua: string): string | null {
  if (/\b(?:iPhone|iPad|iPod)\b/.test(ua)) return iosVersion(ua);
  if (/\bAndroid\b/.test(ua)) return androidVersion(ua);
  if (/\bWindows Phone\b/.test(ua)) return "Windows Phone";
  if (/\bWindows\b/.test(ua)) return "Windows";
  if (/\bCrOS\b/.test(ua)) return "ChromeOS";
  // An iPad asking for the desktop site says "Macintosh" too; it cannot be told apart, and says macOS.
  if (/\bMac OS X\b|\bMacintosh\b/.test(ua)) return "macOS";
  if (/\bUbuntu\b/.test(ua)) return "Ubuntu";
  if (/\bLinux\b|\bX11\b/.test(ua)) return "Linux";
  if (/\bFreeBSD\b/.test(ua)) return "FreeBSD";
  return null;
}

export function describeUserAgent(userAgent: string | null | undefined): DeviceSummary {
  const ua = (userAgent ?? "").slice(0, MAX_SCANNED).trim();
  if (!ua) return { browser: null, os: null };
  let browser: string | null = null;
  for (const { name, pattern } of BROWSERS) {
    const match = pattern.exec(ua);
    if (match) {
      browser = `${name} ${match[1]}`;
      break;
    }
  }
  return { browser, os: operatingSystem(ua) };
}
