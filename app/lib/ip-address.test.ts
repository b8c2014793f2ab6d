import { describe, expect, it } from "vitest";
import { compactAddress } from "./ip-address";

describe("compactAddress", () => {
  it("shortens an expanded IPv6 address the standard way", () => {
    expect(compactAddress("2001:0db8:0000:0000:0000:0000:0000:0001")).toBe("2001:db8::1");
    expect(compactAddress("0000:0000:0000:0000:0000:0000:0000:0001")).toBe("::1");
    expect(compactAddress("0000:0000:0000:0000:0000:0000:0000:0000")).toBe("::");
    expect(compactAddress("2001:0DB8:ABCD:0012:0000:0000:0000:0000")).toBe("2001:db8:abcd:12::");
    // The longest run wins; a single zero group stays.
    expect(compactAddress("2001:0db8:0000:0001:0000:0000:0000:0001")).toBe("2001:db8:0:1::1");
    expect(compactAddress("2001:0db8:0000:0000:0001:0000:0000:0001")).toBe("2001:db8::1:0:0:1");
    expect(compactAddress("2001:0db8:0001:0002:0003:0004:0005:0006")).toBe("2001:db8:1:2:3:4:5:6");
  });

  it("shows an IPv4 address mapped into IPv6 as IPv4", () => {
    expect(compactAddress("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(compactAddress("::FFFF:203.0.113.9")).toBe("203.0.113.9");
    expect(compactAddress("::ffff:127.0.0.1.5")).toBe("::ffff:127.0.0.1.5");
  });

  it("leaves IPv4 and anything else as it is", () => {
    expect(compactAddress("203.0.113.9")).toBe("203.0.113.9");
    expect(compactAddress("::1")).toBe("::1");
    expect(compactAddress("unknown")).toBe("unknown");
    expect(compactAddress("")).toBe("");
  });
});
