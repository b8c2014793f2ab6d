import { describe, expect, it } from "vitest";
import { describeUserAgent } from "./user-agent";

// Real headers, as browsers sent them.
const cases: [string, string, { browser: string | null; os: string | null }][] = [
  [
    "Chrome on Windows",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
    { browser: "Chrome 126", os: "Windows" },
  ],
  [
    "Firefox on Windows",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0",
    { browser: "Firefox 127", os: "Windows" },
  ],
  [
    "Edge on Windows (also says Chrome and Safari)",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36 Edg/125.0.2535.92",
    { browser: "Edge 125", os: "Windows" },
  ],
  [
    "Opera on Windows",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0",
    { browser: "Opera 110", os: "Windows" },
  ],
  [
    "Safari on macOS",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15",
    { browser: "Safari 17", os: "macOS" },
  ],
  [
    "Safari on an iPhone",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    { browser: "Safari 17", os: "iOS 17" },
  ],
  [
    "Chrome on an iPad",
    "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1",
    { browser: "Chrome 126", os: "iOS 16" },
  ],
  [
    "Firefox on an iPhone",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15",
    { browser: "Firefox 127", os: "iOS 17" },
  ],
  [
    "Chrome on Android (reduced header)",
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
    { browser: "Chrome 126", os: "Android 10" },
  ],
  [
    "Samsung Internet on Android",
    "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
    { browser: "Samsung Internet 25", os: "Android 14" },
  ],
  [
    "Firefox on Ubuntu",
    "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0",
    { browser: "Firefox 126", os: "Ubuntu" },
  ],
  [
    "headless Chromium on Linux (the browser tests)",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 Safari/537.36",
    { browser: "Chrome 131", os: "Linux" },
  ],
  [
    "Chrome on ChromeOS",
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
    { browser: "Chrome 126", os: "ChromeOS" },
  ],
  ["curl", "curl/8.5.0", { browser: "curl 8", os: null }],
];

describe("describeUserAgent", () => {
  for (const [name, header, expected] of cases) {
    it(name, () => {
      expect(describeUserAgent(header)).toEqual(expected);
    });
  }

  it("says nothing it does not know", () => {
    expect(describeUserAgent(null)).toEqual({ browser: null, os: null });
    expect(describeUserAgent(undefined)).toEqual({ browser: null, os: null });
    expect(describeUserAgent("   ")).toEqual({ browser: null, os: null });
    expect(describeUserAgent("vitest")).toEqual({ browser: null, os: null });
    expect(describeUserAgent("<script>alert(1)</script>")).toEqual({ browser: null, os: null });
  });

  it("knows the system without the browser, and the browser without the system", () => {
    expect(describeUserAgent("SomeApp/1.0 (Windows NT 10.0)")).toEqual({
      browser: null,
      os: "Windows",
    });
    expect(describeUserAgent("Mozilla/5.0 Firefox/99.0")).toEqual({
      browser: "Firefox 99",
      os: null,
    });
  });

  it("reads only the start of an absurdly long header", () => {
    const long = `Mozilla/5.0 (Windows NT 10.0) ${"x".repeat(100_000)} Chrome/126.0`;
    expect(describeUserAgent(long)).toEqual({ browser: null, os: "Windows" });
  });
});
