import { describe, expect, it } from "vitest";
import { itemOf, readPdf, type PdfTextItem, type ReadPdf } from "../../../tests/support/pdf-text";
import { invoice, pdfOf, topUpReceipt } from "../../../tests/support/invoice-documents";

const texts = (read: ReadPdf) => read.items.map((item) => item.text.normalize("NFKC"));
/** The items' texts as one line: a text that wrapped over two lines reads whole. */
const flat = (read: ReadPdf) => texts(read).join(" ");

/** A4 in points, and its margin all round. */
const A4 = { width: 595.28, height: 841.89, margin: 50 };

/**
 * What is drawn outside the margins: a text cut off at the page's edge, or off it (its baseline outside),
 * or a line (the rule under a line of the table, the total's, the footer's).
 */
const outsideMargins = (read: ReadPdf) => [
  ...read.items
    .filter(
      (item) =>
        item.x < A4.margin - 0.5 ||
        item.x + item.width > A4.width - A4.margin + 0.5 ||
        item.y < A4.margin ||
        item.y > A4.height - A4.margin,
    )
    .map((item) => `${item.text} (page ${item.page}, ${item.x}, ${item.y})`),
  ...read.strokes
    .filter(
      (line) =>
        line.left < A4.margin - 0.5 ||
        line.right > A4.width - A4.margin + 0.5 ||
        line.bottom < A4.margin ||
        line.top > A4.height - A4.margin,
    )
    .map((line) => `a line (page ${line.page}, ${line.left} to ${line.right}, ${line.bottom})`),
];

/**
 * The texts drawn over one another: on one page, across each other, and with baselines closer than the
 * smallest size on the page (8 points).
 */
function overlapping(read: ReadPdf): string[] {
  const pairs: string[] = [];
  read.items.forEach((a, index) => {
    for (const b of read.items.slice(index + 1)) {
      if (a.page !== b.page) continue;
      const across = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      if (across > 0.5 && Math.abs(a.y - b.y) < 8) pairs.push(`${a.text} / ${b.text}`);
    }
  });
  return pairs;
}

/** The first item whose text begins with `text` (a text drawn over two items: its first). */
function startingWith(read: ReadPdf, text: string) {
  const item = read.items.find((each) => each.text.normalize("NFKC").startsWith(text));
  if (!item) throw new Error(`no text begins with ${text}`);
  return item;
}

/** Whether each item stands above the next on the page (PDF heights count from the bottom). */
const topToBottom = (items: { y: number }[]) =>
  items.slice(1).every((item, index) => items[index]!.y > item.y);

describe("renderDocumentPdf", () => {
  it("writes an invoice in English: number, parties, lines, VAT and total", async () => {
    const bytes = await pdfOf(invoice, "en");
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
    const read = await readPdf(bytes);
    expect(read.pages).toBe(1);
    expect(read.info).toMatchObject({ Title: "Invoice HF-2026-000123", Author: "Hostfront SARL" });
    for (const text of [
      "Invoice HF-2026-000123",
      "Paid",
      "Issued on 4 March 2026",
      "Hostfront SARL",
      "Tax ID: ICE 001234567000089",
      "salma@example.com",
      "Morocco",
      "Subtotal (excl. VAT)",
      "€10.00",
      "VAT 20%",
      "€2.00",
      "Total",
      "€12.00",
      "شركة الأطلس",
    ])
      expect(texts(read), text).toContain(text);
    expect(flat(read)).toContain("Order #42: SA-MP 100 slots (monthly), server Atlas RP");
  });

  it("reads top to bottom as the page does: title, date, parties, lines, totals, the note on payment", async () => {
    const bytes = await pdfOf(invoice, "en");
    const read = await readPdf(bytes);
    const at = (text: string) => startingWith(read, text);
    expect(
      topToBottom(
        [
          "Invoice HF-2026-000123",
          "Issued on 4 March 2026",
          "FROM",
          "Hostfront SARL",
          "12 bd Zerktouni",
          "Casablanca",
          "Tax ID: ICE 001234567000089",
          "Description",
          "Order #42",
          "Subtotal (excl. VAT)",
          "VAT 20%",
          "Total",
          "Paid with coins from the account balance",
        ].map(at),
      ),
    ).toBe(true);
    // The buyer beside the seller, each under its heading (upper case, as on the page).
    expect(at("BILLED TO").y).toBe(at("FROM").y);
    expect(at("شركة الأطلس").y).toBe(at("Hostfront SARL").y);
    expect(
      topToBottom(
        [
          "BILLED TO",
          "شركة الأطلس",
          "salma@example.com",
          "12 rue des Oudayas",
          "Rabat",
          "Morocco",
        ].map(at),
      ),
    ).toBe(true);
    // Left to right: the title at the left margin, each amount ending at the right one, on its label's line.
    expect(at("Invoice HF-2026-000123").x).toBeCloseTo(A4.margin, 0);
    expect(at("Order #42").x).toBeCloseTo(A4.margin, 0);
    const vat = at("€2.00");
    expect(vat.x + vat.width).toBeCloseTo(A4.width - A4.margin, 0);
    expect(vat.y).toBe(at("VAT 20%").y);
    expect(at("VAT 20%").x).toBeGreaterThan(A4.width / 2);
    expect(outsideMargins(read)).toEqual([]);
    expect(overlapping(read)).toEqual([]);
    // A viewer shows the document's title in its window, not the file's name.
    expect(Buffer.from(bytes).toString("latin1")).toContain("/DisplayDocTitle true");
  });

  it("keeps every text inside the margins, and none over another, in each language", async () => {
    for (const locale of ["en", "fr", "ar"] as const) {
      const read = await readPdf(await pdfOf(invoice, locale));
      expect(outsideMargins(read), locale).toEqual([]);
      expect(overlapping(read), locale).toEqual([]);
    }
    // In Arabic too, each amount reads left to right: the line's unit price and amount, and the total.
    const arabic = await readPdf(await pdfOf(invoice, "ar"));
    expect(texts(arabic).filter((text) => text === "12,00 €")).toHaveLength(3);
    // The line's description reads right to left: its last words (the server's name) at its left end.
    expect(itemOf(arabic, "Atlas")!.x).toBeLessThan(itemOf(arabic, "الطلب رقم")!.x);
  });

  it("wraps a long address in its party's column, the seller's and the buyer's side by side", async () => {
    const seller =
      "Immeuble Les Jardins de la Corniche, 7e étage, bureau 712, boulevard de la Corniche";
    const buyer =
      "Résidence Al Andalous, appartement 14, angle rue des Oudayas et avenue Mohammed V";
    const long = {
      ...invoice,
      seller: { ...invoice.seller, address: `${seller}\nCasablanca` },
      buyer: { ...invoice.buyer, address: `${buyer}\nRabat` },
    };
    for (const locale of ["en", "ar"] as const) {
      const read = await readPdf(await pdfOf(long, locale));
      expect(flat(read), locale).toContain(seller);
      expect(flat(read), locale).toContain(buyer);
      expect(outsideMargins(read), locale).toEqual([]);
      expect(overlapping(read), locale).toEqual([]);
      // Side by side: the seller's address begins beside the buyer's email, and each column is under
      // half the page.
      const sellerLine = startingWith(read, "Immeuble");
      const buyerLine = startingWith(read, "Résidence");
      expect(sellerLine.y, locale).toBe(startingWith(read, "salma@example.com").y);
      for (const item of [sellerLine, buyerLine])
        expect(item.width, locale).toBeLessThan((A4.width - 2 * A4.margin) / 2);
    }
  });

  it("keeps every text inside the margins, and none over another, wherever the page ends", async () => {
    for (const creditedBy of [null, "HFC-2026-000009"])
      for (let count = 10; count <= 24; count++) {
        const lines = Array.from({ length: count }, (_, index) => ({
          ...invoice.lines[0]!,
          params: { ...invoice.lines[0]!.params, id: 100 + index },
        }));
        const read = await readPdf(await pdfOf({ ...invoice, creditedBy, lines }, "en"));
        const what = `${count} lines${creditedBy ? ", credited" : ""}`;
        expect(outsideMargins(read), what).toEqual([]);
        expect(overlapping(read), what).toEqual([]);
        // The totals, then the note on payment, after the last line, on the last page.
        const last = startingWith(read, `Order #${100 + count - 1}`);
        const total = startingWith(read, "Total");
        const note = startingWith(read, "Paid with coins");
        expect(note.page, what).toBe(read.pages);
        expect([last.page, total.page, note.page].join(), what).toBe(
          [last.page, total.page, note.page].sort().join(),
        );
        for (const [before, after] of [
          [last, total],
          [total, note],
        ] as const)
          if (before.page === after.page) expect(before.y, what).toBeGreaterThan(after.y);
      }
    // 30 documents written and read back: about 3 s on a quiet host, past the 5 s default on a busy one.
  }, 30_000);

  /**
   * Lines of an order on each of `servers`, numbered from 101, their quantity too (a number nothing else
   * on the page reads, to find each line's row). On the server "Atlas RP" a description takes two lines,
   * in English and in Arabic; on "RP", one.
   */
  const orderLines = (servers: string[]) =>
    servers.map((server, index) => ({
      ...invoice.lines[0]!,
      params: { ...invoice.lines[0]!.params, id: 101 + index, server },
      quantity: 101 + index,
    }));
  const TWO_LINES = "Atlas RP";
  const ONE_LINE = "RP";
  const times = (count: number, server: string) => Array<string>(count).fill(server);
  /** The row of the line of quantity `quantity`: its quantity's item. */
  const rowOf = (read: ReadPdf, quantity: number) => {
    const item = itemOf(read, String(quantity));
    if (!item) throw new Error(`no line of quantity ${quantity}`);
    return item;
  };

  it("keeps each line of the table and the rule under it inside the margins wherever the page cuts the table", async () => {
    // With its rule and gaps, a line is 42 points high when its description takes two lines, 28 when
    // one; each line of the buyer's address more moves the table 14 points down. Three places of the
    // table (no address line more, one, two) bring a two-line line to each place the page's end can cut
    // it, two places a one-line line.
    for (const [server, count, places] of [
      [TWO_LINES, 15, 3],
      [ONE_LINE, 22, 2],
    ] as const)
      for (let more = 0; more < places; more++) {
        const address = [invoice.buyer.address, ...times(more, "Agdal")].join("\n");
        const lines = orderLines(times(count, server));
        const read = await readPdf(
          await pdfOf({ ...invoice, buyer: { ...invoice.buyer, address }, lines }, "en"),
        );
        const what = `${count} lines on ${server}, ${more} address lines more`;
        expect(outsideMargins(read), what).toEqual([]);
        expect(overlapping(read), what).toEqual([]);
        // Each description whole; the table carried over to a second page.
        const all = flat(read);
        for (const { params } of lines)
          expect(all, what).toContain(
            `Order #${params.id}: SA-MP 100 slots (monthly), server ${server}`,
          );
        expect([rowOf(read, 101).page, rowOf(read, 100 + count).page], what).toEqual([1, 2]);
        if (server === ONE_LINE)
          expect(startingWith(read, `Order #${100 + count}`).text, what).toMatch(/ RP$/);
      }
    // 5 documents of 15 to 22 lines: under a second on a quiet host.
  }, 30_000);

  it("starts the table on a new page, its heading with its first line, when the parties end near the page's end", async () => {
    // The parties are not carried over (they are a few lines), so the table's heading reaches the
    // page's end only under some 40 lines of a party: an address of many short lines (the settings take
    // 400 characters). Where each line of the seller's address more brings it, from the plain invoice:
    const plain = await readPdf(await pdfOf(invoice, "en"));
    const heading = startingWith(plain, "Description").y;
    const pitch = startingWith(plain, "12 bd Zerktouni").y - startingWith(plain, "Casablanca").y;
    const taxId = startingWith(plain, "Tax ID").y;
    // The seller's column (name, address, tax ID) is the longer from 4 address lines (the buyer's has 5).
    const headingAt = (lines: number) => heading - pitch * Math.max(0, lines - 3);
    const pages = new Set<number>();
    // From the heading 80 points above the bottom margin to the last address the page holds.
    for (let lines = 3; taxId - pitch * (lines - 2) >= A4.margin; lines++) {
      if (headingAt(lines) > A4.margin + 80) continue;
      const address = Array.from({ length: lines }, (_, index) => `Bloc ${index + 1}`).join("\n");
      const read = await readPdf(
        await pdfOf({ ...invoice, seller: { ...invoice.seller, address } }, "en"),
      );
      const what = `${lines} address lines`;
      expect(outsideMargins(read), what).toEqual([]);
      expect(overlapping(read), what).toEqual([]);
      const [columns, line] = [startingWith(read, "Description"), startingWith(read, "Order #42")];
      expect(line.page, what).toBe(columns.page);
      expect(columns.y, what).toBeGreaterThan(line.y);
      pages.add(columns.page);
    }
    // The heading stayed on the parties' page in some of them and went to the next in others.
    expect([...pages].sort()).toEqual([1, 2]);
    // 8 documents of one line: under a second on a quiet host.
  }, 30_000);

  it("carries a note of the footer that would reach into the bottom margin over to the next page", async () => {
    // An invoice at 0 % VAT has two notes under its totals (no VAT applies, paid with coins): in Arabic,
    // 13.6 points apart. A line of the table is 48 points high there when its description takes two
    // lines, 31 when one. With `two` two-line lines (0 to 8), then as many one-line ones as bring the
    // second note nearest the page's end, that note lands at nine places within 14 points either side of
    // the end (were nothing carried over), none more than 5 points from the next.
    const free = { ...invoice, vatRateBp: 0, vatCents: 0, subtotalCents: 1200 };
    /** The notes' items (their longest words), in their order. */
    const notesOf = (read: ReadPdf) =>
      ["الوثيقة", "رصيد الحساب"].map((words) => {
        const item = read.items.find((each) => each.text.normalize("NFKC").includes(words));
        if (!item) throw new Error(`no note reads ${words}`);
        return item;
      });
    // The heights, from a table of a two-line line and two one-line ones.
    const probe = await readPdf(
      await pdfOf({ ...free, lines: orderLines([TWO_LINES, ONE_LINE, ONE_LINE]) }, "ar"),
    );
    const [first, second, third] = [101, 102, 103].map((quantity) => rowOf(probe, quantity).y);
    const [twoLines, oneLine] = [first! - second!, second! - third!];
    /** The second note's baseline under `two` two-line lines and `one` one-line ones, on one page. */
    const noteAt = (two: number, one: number) =>
      notesOf(probe)[1]!.y - (two - 1) * twoLines - (one - 2) * oneLine;
    let split = false;
    for (let two = 0; ; two++) {
      const one = Math.round((noteAt(two, 0) - A4.margin) / oneLine);
      if (one < 0) break;
      const lines = orderLines([...times(two, TWO_LINES), ...times(one, ONE_LINE)]);
      const read = await readPdf(await pdfOf({ ...free, lines }, "ar"));
      const what = `${two} two-line lines, ${one} one-line lines`;
      expect(outsideMargins(read), what).toEqual([]);
      expect(overlapping(read), what).toEqual([]);
      // The notes after the last line, in their order.
      const [noVat, paid] = notesOf(read) as [PdfTextItem, PdfTextItem];
      const down = (item: PdfTextItem) => item.page * A4.height - item.y;
      expect(down(rowOf(read, 100 + two + one)), what).toBeLessThan(down(noVat));
      expect(down(noVat), what).toBeLessThan(down(paid));
      if (paid.page > noVat.page) split = true;
    }
    // The second note went over to a page of its own at least once: the sweep reached the page's end.
    expect(split).toBe(true);
    // 10 documents of 3 to 13 lines, in Arabic: about a second on a quiet host.
  }, 30_000);

  it("writes it in French, amounts as French writes them", async () => {
    const read = await readPdf(await pdfOf(invoice, "fr"));
    for (const text of [
      "Facture HF-2026-000123",
      "Payée",
      "Maroc",
      "TVA 20 %",
      "Total HT",
      "10,00 €",
      "2,00 €",
      "12,00 €",
    ])
      expect(texts(read), text).toContain(text);
  });

  it("writes it in Arabic: right to left, each run read back in logical order, letters joined", async () => {
    const read = await readPdf(await pdfOf(invoice, "ar"));
    // The catalogue's words as typed: drawn reversed, or mapped to the wrong letters, they would not
    // come back so. A run of several words comes back whole, its words in order.
    for (const text of [
      "فاتورة",
      "مدفوعة",
      "المغرب",
      "المجموع دون الضريبة",
      "الضريبة على القيمة المضافة",
      "المجموع",
      "الطلب رقم",
      "شركة الأطلس",
      "HF-2026-000123",
      "10,00 €",
      "2,00 €",
      "12,00 €",
      "salma@example.com",
    ])
      expect(texts(read), text).toContain(text);
    // The Latin product name inside the Arabic line stays whole and left to right.
    expect(read.text).toContain("SA-MP 100 slots");
    // The glyphs map to letters (what copying and searching get), not to presentation forms: only a
    // lam-alef ligature keeps its one character.
    const presentationForms = [...read.text].filter((c) => /[\ufb50-\ufdff\ufe70-\ufef4]/u.test(c));
    expect(presentationForms).toEqual([]);

    // Right to left: the title's word stands right of the number and ends at the right margin (A4 is
    // 595 points wide, the margins 50); the state's badge is at the left margin.
    const title = itemOf(read, "فاتورة")!;
    const number = itemOf(read, "HF-2026-000123")!;
    expect(title.x).toBeGreaterThan(number.x + number.width);
    expect(title.x + title.width).toBeCloseTo(595.28 - 50, 0);
    expect(itemOf(read, "مدفوعة")!.x).toBeLessThan(100);
    // The VAT's label is right of its amount, the line's words right of the product name.
    expect(itemOf(read, "الضريبة على القيمة المضافة")!.x).toBeGreaterThan(
      itemOf(read, "2,00 €")!.x,
    );
    const product = read.items.find((item) => item.text.includes("SA-MP 100 slots"))!;
    expect(itemOf(read, "الطلب رقم")!.x).toBeGreaterThan(product.x + product.width);

    // Shaped: a letter takes a different glyph where it begins, continues or ends a word (ي in يورو,
    // الضريبة, شهري...). Drawn unshaped, each letter would have one glyph.
    const shapedLetters = [..."يبمعلسن"].filter(
      (letter) => (read.glyphs.get(letter)?.size ?? 0) >= 2,
    );
    expect(shapedLetters).toEqual([..."يبمعلسن"]);
  });

  it("writes a credit note with the invoice it corrects, and a receipt without VAT", async () => {
    const credit = await readPdf(
      await pdfOf(
        {
          ...invoice,
          number: "HFC-2026-000007",
          kind: "credit_note",
          state: "paid",
          creditsNumber: "HF-2026-000123",
          refundMethod: "coins",
          reason: "Refund within 14 days",
          subtotalCents: -1000,
          vatCents: -200,
          totalCents: -1200,
          lines: invoice.lines.map((line) => ({ ...line, unitCents: -1200, totalCents: -1200 })),
        },
        "en",
      ),
    );
    for (const text of [
      "Credit note HFC-2026-000007",
      "Credit note for HF-2026-000123",
      "Refunded to the coin balance",
      "Reason: Refund within 14 days",
      "-€12.00",
    ])
      expect(texts(credit), text).toContain(text);

    const receipt = await readPdf(
      await pdfOf(
        {
          ...invoice,
          number: "HFR-2026-000001",
          kind: "receipt",
          vatRateBp: 0,
          vatCents: 0,
          subtotalCents: 5000,
          totalCents: 5000,
          lines: [
            {
              kind: "topUp",
              params: { reference: "TU-7K2M", method: "Orange Money" },
              quantity: 1,
              unitCents: 5000,
              totalCents: 5000,
            },
          ],
        },
        "ar",
      ),
    );
    expect(texts(receipt)).toContain("إيصال دفع");
    expect(texts(receipt)).toContain("HFR-2026-000001");
    // The reference and the method's name in brackets: one left-to-right piece, on one line.
    expect(texts(receipt)).toContain("TU-7K2M (Orange Money)");
  });

  it("writes a top-up's receipt in Arabic: the number whole, the method in one piece, the payment beside the coins", async () => {
    const read = await readPdf(await pdfOf(topUpReceipt, "ar"));
    expect(outsideMargins(read)).toEqual([]);
    expect(overlapping(read)).toEqual([]);
    // The number in one piece, left to right, left of the title's words.
    const number = itemOf(read, "HFR-2026-000001")!;
    expect(number.dir).toBe("ltr");
    expect(itemOf(read, "إيصال دفع")!.x).toBeGreaterThan(number.x + number.width);
    // The line's reference and method: one piece, its brackets the right way round (a mirrored
    // bracket reads back as the other one), never split over two lines.
    const method = itemOf(read, "TU-7K2M3 (Orange Money)");
    expect(method, read.text).toBeDefined();
    expect(read.text).not.toMatch(/Orange\)|\(Money/);
    // Right to left: the line's Arabic words right of it.
    expect(itemOf(read, "كوينز لرصيد الحساب")!.x).toBeGreaterThan(method!.x);
    // The payment, each label right of its value: the amount sent in dirhams, the method, the
    // reference, the account that paid, the day; and the coins.
    for (const [label, value] of [
      ["طريقة الدفع", "Orange Money"],
      ["المرجع", "TU-7K2M3"],
      ["رقم الهاتف أو الحساب الذي دفع", "0612345678"],
      ["الكوينز المضافة إلى الرصيد", "10"],
    ]) {
      const [labelItem, valueItem] = [itemOf(read, label!)!, itemOf(read, value!)!];
      expect(labelItem.y, label).toBe(valueItem.y);
      expect(labelItem.x, label).toBeGreaterThan(valueItem.x + valueItem.width);
    }
    // The amount sent as Arabic writes dirhams: the figure, then (to its left) the sign "د.م.".
    const sent = itemOf(read, "المبلغ المرسل")!;
    const amount = itemOf(read, "110,00")!;
    expect(amount.y).toBe(sent.y);
    for (const letter of ["د", "م"])
      expect(itemOf(read, letter)).toMatchObject({ y: sent.y, x: expect.any(Number) });
    expect(itemOf(read, "د")!.x).toBeLessThan(amount.x);
    const day = itemOf(read, "تاريخ الدفع")!;
    expect(read.items.filter((item) => item.y === day.y).map((item) => item.text)).toContain(
      "مارس",
    );
  });

  it("writes a top-up's receipt's payment in English and French", async () => {
    const english = await readPdf(await pdfOf(topUpReceipt, "en"));
    for (const text of [
      "PAYMENT",
      "Amount sent",
      "MAD 110.00",
      "Orange Money",
      "TU-7K2M3",
      "0612345678",
      "3 March 2026",
      "Coins credited",
    ])
      expect(texts(english), text).toContain(text);
    expect(flat(english)).toContain(
      "Coins for the account balance: top-up TU-7K2M3 (Orange Money)",
    );
    expect(outsideMargins(english)).toEqual([]);
    expect(overlapping(english)).toEqual([]);
    const french = await readPdf(await pdfOf(topUpReceipt, "fr"));
    for (const text of ["Reçu de paiement HFR-2026-000001", "Payé", "110,00 MAD", "3 mars 2026"])
      expect(texts(french), text).toContain(text);
  });

  it("breaks long lines and carries a long document over to a second page", async () => {
    const lines = Array.from({ length: 40 }, (_, index) => ({
      ...invoice.lines[0]!,
      params: {
        ...invoice.lines[0]!.params,
        id: 1000 + index,
        server: `A server name long enough to need a second line in the description ${index}`,
      },
    }));
    const read = await readPdf(await pdfOf({ ...invoice, lines }, "en"));
    expect(read.pages).toBeGreaterThan(1);
    // Every line, each description whole over its two lines, and the totals after the last.
    for (let index = 0; index < 40; index++)
      expect(flat(read)).toContain(
        `Order #${1000 + index}: SA-MP 100 slots (monthly), server A server name long enough to need a second line in the description ${index}`,
      );
    expect(itemOf(read, "Total")!.page).toBe(read.pages);
    expect(read.items.filter((item) => item.x < 50 || item.x > 595.28 - 50)).toEqual([]);
    // Each description's second line under its first, none drawn over another or past a margin.
    expect(outsideMargins(read)).toEqual([]);
    expect(overlapping(read)).toEqual([]);
  });

  it("gives the same bytes for the same document, whatever was written before", async () => {
    const first = await pdfOf(invoice, "en");
    await pdfOf(invoice, "fr");
    await pdfOf(invoice, "ar");
    expect(Buffer.from(await pdfOf(invoice, "en")).equals(Buffer.from(first))).toBe(true);
  });
});
