import { describe, expect, it } from "vitest";
import { isIpAddress, localAddressKind, panelAddressRefused, panelBaseUrl } from "./panel-address";

/** What the classifier says of a URL's host, as the URL parser hands it over. */
const kindOf = (url: string) => localAddressKind(new URL(url).hostname);

describe("the panel's address", () => {
  it("is kept as scheme, host and path, without a default port or trailing slashes", () => {
    expect(panelBaseUrl("https://Panel.Example.com/")).toBe("https://panel.example.com");
    expect(panelBaseUrl("  https://panel.example.com:443/panel///  ")).toBe(
      "https://panel.example.com/panel",
    );
    expect(panelBaseUrl("http://panel.example.com:8080")).toBe("http://panel.example.com:8080");
    // Two spellings of one address compare equal; another path or port is another address.
    expect(panelBaseUrl("https://panel.example.com/a/")).toBe(
      panelBaseUrl("HTTPS://PANEL.example.com:443/a"),
    );
    expect(panelBaseUrl("https://panel.example.com/a")).not.toBe(
      panelBaseUrl("https://panel.example.com/b"),
    );
  });

  it("refuses what cannot be a panel's address, an empty fragment or query too", () => {
    for (const text of [
      "ftp://panel.example.com",
      "panel.example.com",
      "javascript:alert(1)",
      "https://user:pw@panel.example.com",
      "https://user@panel.example.com",
      "https://panel.example.com/?x=1",
      "https://panel.example.com/?",
      "https://panel.example.com/#",
      "https://attacker.example/x#",
      "https://panel.example.com#/api",
      "",
    ])
      expect(panelBaseUrl(text), text).toBeNull();
  });
});

describe("local addresses", () => {
  it("names loopback, private, link-local, unspecified and reserved IPv4 ranges", () => {
    const cases: [string, ReturnType<typeof localAddressKind>][] = [
      ["http://10.0.0.1", "private"],
      ["http://10.255.255.255", "private"],
      ["http://172.16.0.1", "private"],
      ["http://172.31.255.254", "private"],
      ["http://172.15.0.1", null],
      ["http://172.32.0.1", null],
      ["http://192.168.1.1", "private"],
      ["http://192.169.1.1", null],
      ["http://100.64.0.1", "private"],
      ["http://100.127.255.254", "private"],
      ["http://100.63.0.1", null],
      ["http://100.128.0.1", null],
      ["http://169.254.169.254", "linkLocal"],
      ["http://127.0.0.1", "loopback"],
      ["http://127.0.0.2", "loopback"],
      ["http://127.255.255.254", "loopback"],
      ["http://0.0.0.0", "unspecified"],
      ["http://0.1.2.3", "unspecified"],
      ["http://224.0.0.1", "reserved"],
      ["http://255.255.255.255", "reserved"],
      ["http://198.18.0.1", "reserved"],
      ["http://8.8.8.8", null],
      ["http://1.1.1.1", null],
      ["http://203.0.113.10", null],
    ];
    for (const [url, kind] of cases) expect(kindOf(url), url).toBe(kind);
  });

  it("sees through the IPv4 spellings the URL parser reads as 127.0.0.1 or 10.0.0.1", () => {
    for (const url of [
      "http://2130706433",
      "http://0x7f.1",
      "http://0x7f000001",
      "http://017700000001",
      "http://0177.0.0.1",
      "http://127.1",
      "http://127.0.1",
    ]) {
      expect(new URL(url).hostname, url).toBe("127.0.0.1");
      expect(kindOf(url), url).toBe("loopback");
    }
    expect(kindOf("http://167772161")).toBe("private");
    expect(kindOf("http://0xa9fea9fe")).toBe("linkLocal");
  });

  it("names IPv6 loopback, unique local, link-local and the IPv4 addresses written in IPv6", () => {
    const cases: [string, ReturnType<typeof localAddressKind>][] = [
      ["http://[::1]", "loopback"],
      ["http://[0:0:0:0:0:0:0:1]", "loopback"],
      ["http://[::]", "unspecified"],
      ["http://[fc00::1]", "private"],
      ["http://[fd12:3456:789a::1]", "private"],
      ["http://[fe80::1]", "linkLocal"],
      ["http://[febf::1]", "linkLocal"],
      ["http://[fec0::1]", "private"],
      ["http://[ff02::1]", "reserved"],
      ["http://[::ffff:127.0.0.1]", "loopback"],
      ["http://[::ffff:7f00:1]", "loopback"],
      ["http://[::ffff:10.0.0.1]", "private"],
      ["http://[::ffff:169.254.169.254]", "linkLocal"],
      ["http://[::ffff:8.8.8.8]", null],
      ["http://[::127.0.0.1]", "loopback"],
      ["http://[64:ff9b::7f00:1]", "loopback"],
      ["http://[64:ff9b::808:808]", null],
      ["http://[64:ff9b:1::1]", "private"],
      ["http://[2002:7f00:1::1]", "loopback"],
      ["http://[2002:808:808::1]", null],
      ["http://[2001:4860:4860::8888]", null],
      ["http://[2a00:1450:4001:80b::200e]", null],
    ];
    for (const [url, kind] of cases) expect(kindOf(url), url).toBe(kind);
  });

  it("reads a resolver's answers the same way, and `localhost` names as loopback", () => {
    expect(localAddressKind("127.0.0.1")).toBe("loopback");
    expect(localAddressKind("::1")).toBe("loopback");
    expect(localAddressKind("::ffff:192.168.0.10")).toBe("private");
    expect(localAddressKind("fe80::1")).toBe("linkLocal");
    expect(localAddressKind("93.184.215.14")).toBeNull();
    expect(localAddressKind("localhost")).toBe("loopback");
    expect(localAddressKind("LOCALHOST.")).toBe("loopback");
    expect(localAddressKind("panel.localhost")).toBe("loopback");
    // Any other name is judged by what it resolves to, when it is called.
    expect(localAddressKind("panel.example.com")).toBeNull();
    expect(localAddressKind("localhost.example.com")).toBeNull();
    expect(isIpAddress("[::1]")).toBe(true);
    expect(isIpAddress("10.0.0.1")).toBe(true);
    expect(isIpAddress("panel.example.com")).toBe(false);
    expect(isIpAddress("1.2.3.256")).toBe(false);
    expect(isIpAddress("1::2::3")).toBe(false);
    expect(isIpAddress("1:2:3:4:5:6:7:8:9")).toBe(false);
  });

  it("refuses a local panel unless a panel on the local network is allowed", () => {
    expect(panelAddressRefused("http://127.0.0.1:4400", false)).toBe(true);
    expect(panelAddressRefused("http://[::ffff:7f00:1]:4400", false)).toBe(true);
    expect(panelAddressRefused("http://localhost:4400", false)).toBe(true);
    expect(panelAddressRefused("https://panel.example.com", false)).toBe(false);
    expect(panelAddressRefused("http://127.0.0.1:4400", true)).toBe(false);
    expect(panelAddressRefused("http://192.168.1.20", true)).toBe(false);
  });
});
