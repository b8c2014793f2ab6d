import { describe, expect, it } from "vitest";
import { bidiParts, latinRunsToIsolate } from "./bidi";

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

describe("latinRunsToIsolate", () => {
  const runs = (text: string) => latinRunsToIsolate(text).map(([from, to]) => text.slice(from, to));

  it("takes a reference with the method in brackets after it, brackets and all", () => {
    expect(runs("كوينز لرصيد الحساب: الشحن TU-7K2M3 (Orange Money)")).toEqual([
      "TU-7K2M3 (Orange Money)",
    ]);
    expect(runs("الشحن (Orange Money) تم")).toEqual(["(Orange Money)"]);
    expect(runs("طريقة [PayPal] هنا")).toEqual(["[PayPal]"]);
  });

  it("takes a document number, an amount and a number with its unit whole", () => {
    expect(runs("إيصال دفع HFR-2026-000001")).toEqual(["HFR-2026-000001"]);
    expect(runs("المبلغ 4,36\u00a0€ فقط")).toEqual(["4,36\u00a0€"]);
    expect(runs("عند 192.168.1.10:7777 على 12:30")).toEqual(["192.168.1.10:7777", "12:30"]);
  });

  it("ends a run at a colon followed by a space: a number, then a name, each in its place", () => {
    expect(runs("الطلب رقم 42: SA-MP 100 slots (شهري)، الخادم Atlas RP")).toEqual([
      "42",
      "SA-MP 100 slots",
    ]);
  });

  it("leaves Latin words without a digit or a bracket to the bidirectional algorithm", () => {
    expect(runs("الخادم Atlas RP")).toEqual([]);
    expect(runs("")).toEqual([]);
  });

  it("never reaches into the run before, whatever the brackets", () => {
    const text = "a1) (b2) (c)";
    const found = latinRunsToIsolate(text);
    for (const [index, [from]] of found.entries())
      if (index > 0) expect(from).toBeGreaterThanOrEqual(found[index - 1]![1]);
  });
});
