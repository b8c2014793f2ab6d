import { describe, expect, it } from "vitest";
import { bidiParts } from "./bidi";

const isolated = (text: string) =>
  bidiParts(text)
    .filter((p) => p.isolate)
    .map((p) => p.text);

describe("bidiParts", () => {
  it("isolates an address with its port and an error code inside Arabic", () => {
    const text = "خطأ 0x1F عند 192.168.1.10:7777";
    expect(isolated(text)).toEqual(["0x1F", "192.168.1.10:7777"]);
    expect(
      bidiParts(text)
        .map((p) => p.text)
        .join(""),
    ).toBe(text);
  });

  it("keeps a number with its unit in one piece, and leaves plain Latin words alone", () => {
    expect(isolated("تخزين NVMe بسعة 5 GB")).toEqual(["5 GB"]);
    expect(isolated("سعة \u2068150\u2069 لاعب")).toEqual(["\u2068150\u2069"]);
    expect(isolated("تخزين NVMe")).toEqual([]);
  });

  it("keeps an amount with its euro sign", () => {
    expect(isolated("المبلغ 4,36\u00a0€ فقط")).toEqual(["4,36\u00a0€"]);
  });

  it("isolates a whole Latin sentence that holds a digit, punctuation inside included", () => {
    expect(isolated("مرحبا Why? Port 7777 fails. شكرا")).toEqual(["Why? Port 7777 fails"]);
    expect(isolated("5 GB NVMe storage")).toEqual(["5 GB NVMe storage"]);
  });

  it("never joins two lines into one run", () => {
    expect(isolated("port 1\nport 2")).toEqual(["port 1", "port 2"]);
  });

  it("gives back text without digits as one plain part", () => {
    expect(bidiParts("مرحبا bonjour")).toEqual([{ text: "مرحبا bonjour", isolate: false }]);
    expect(bidiParts("")).toEqual([]);
  });
});
