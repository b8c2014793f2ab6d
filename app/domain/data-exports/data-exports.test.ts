import { describe, expect, it } from "vitest";
import { createI18n } from "~/i18n/i18n";
import { SUPPORTED_LOCALES, type Locale } from "~/i18n/locales";
import { loadResources } from "~/i18n/resources";
import {
  ARCHIVE_DOCUMENTS_FOLDER,
  ARCHIVE_FILES,
  archiveMoney,
  archiveReadme,
  dataExportFileName,
  dataExportPath,
  DATA_EXPORT_TOKEN,
  type ReadmeFacts,
} from "./data-exports";

const FACTS: Omit<ReadmeFacts, "locale"> = {
  siteName: "Hostfront",
  name: "Yasmine El Idrissi",
  email: "yasmine@example.com",
  madeAt: "2031-03-12T04:17:00.000Z",
  timeZone: "Europe/Paris",
  documents: 3,
};

/** The README in `locale`, from the real catalogues, as the worker writes it (server/data-exports.ts). */
async function readmeIn(locale: Locale, facts: Partial<ReadmeFacts> = {}) {
  const i18n = await createI18n(locale, await loadResources(locale));
  const t = i18n.getFixedT(null, "dashboard");
  return archiveReadme((key, values) => t(key, values), { ...FACTS, locale, ...facts });
}

describe("the archive's README", () => {
  it.each(SUPPORTED_LOCALES)(
    "is written in %s, naming every file, with no key left",
    async (locale) => {
      const readme = await readmeIn(locale);
      for (const name of Object.values(ARCHIVE_FILES).filter((name) => name !== "README.txt"))
        expect(readme).toContain(`- ${name}: `);
      expect(readme).toContain(`- ${ARCHIVE_DOCUMENTS_FOLDER}/: `);
      expect(readme).toContain(FACTS.name);
      expect(readme).toContain(FACTS.email);
      expect(readme).toContain("Hostfront");
      // Every text found in the catalogue: a missing one would show its key.
      expect(readme).not.toMatch(/dataExport\.|readme\./);
      expect(readme).not.toContain("{{");
    },
  );

  it("says it in the customer's own words: the three languages differ throughout", async () => {
    const [en, fr, ar] = await Promise.all(SUPPORTED_LOCALES.map((locale) => readmeIn(locale)));
    expect(en).toContain("What each file holds:");
    expect(fr).toContain("Ce que contient chaque fichier :");
    expect(ar).toContain("محتوى كل ملف:");
    // Line by line, apart from the file names and blank lines, no two languages share a line.
    const lines = (text: string) => text.split("\n").filter((line) => line.trim() !== "");
    for (const [a, b] of [
      [en, fr],
      [en, ar],
      [fr, ar],
    ] as const) {
      const shared = lines(a!).filter((line) => lines(b!).includes(line));
      expect(shared).toEqual([]);
    }
  });

  it("dates the archive in the reader's language and the site's time zone", async () => {
    // 04:17 UTC is 05:17 in Paris in March (UTC+1, before summer time).
    expect(await readmeIn("en")).toContain("12 Mar 2031, 05:17");
    expect(await readmeIn("fr")).toContain("12 mars 2031, 05:17");
  });

  it("counts the PDFs in the language's plural forms", async () => {
    expect(await readmeIn("en", { documents: 1 })).toContain("(1 file)");
    expect(await readmeIn("en", { documents: 3 })).toContain("(3 files)");
    expect(await readmeIn("ar", { documents: 2 })).toContain("(ملفان)");
  });
});

describe("the archive's figures and names", () => {
  it.each([
    [0, "0.00"],
    [5, "0.05"],
    [1250, "12.50"],
    [100_000_000, "1000000.00"],
    [-1250, "-12.50"],
    [-7, "-0.07"],
  ])("writes %i cents as %s euros, exactly", (cents, euros) => {
    expect(archiveMoney(cents)).toEqual({ cents, euros });
  });

  it("names the download by the day it was made, and links only by a well-formed token", () => {
    expect(dataExportFileName("2031-03-12T23:59:00.000Z")).toBe("my-data-2031-03-12.zip");
    const token = "Qm9yZWRvbV9pc19hX3Rva2VuXzEyMzQ1Njc4OTAxMjM";
    expect(DATA_EXPORT_TOKEN.test(token)).toBe(true);
    expect(dataExportPath(token)).toBe(`/dashboard/account/export/${token}`);
    for (const bad of [`${token}=`, token.slice(1), `${token.slice(1)}/`, `${token.slice(1)}.`])
      expect(DATA_EXPORT_TOKEN.test(bad), bad).toBe(false);
  });
});
