import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "~/i18n/i18n";
import { loadResources } from "~/i18n/resources";
import { useKnownLabel } from "./known-label";

function Labels({ keys }: { keys: [string | undefined, string][] }) {
  const label = useKnownLabel();
  return keys.map(([key, fallback]) => label(key, fallback)).join("|");
}

async function render(keys: [string | undefined, string][], locale: "en" | "fr" = "en") {
  const i18n = await createI18n(locale, await loadResources(locale));
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <Labels keys={keys} />
    </I18nextProvider>,
  );
}

describe("useKnownLabel", () => {
  it("says a key of its namespace, or of another one named with a colon", async () => {
    expect(
      await render([
        ["audit.actions.coinsAdjust", "coins.adjust"],
        ["admin-catalogue:audit.productCreate", "product.create"],
      ]),
    ).toBe("Coins changed|Product created");
  });

  it("says it in the reader's language", async () => {
    expect(await render([["audit.actions.coinsAdjust", "coins.adjust"]], "fr")).toBe(
      "Coins modifiés",
    );
  });

  it("gives the fallback for no key or a key the catalogues do not have", async () => {
    expect(
      await render([
        [undefined, "legacy.thing"],
        ["audit.actions.noSuchAction", "no.such"],
        ["admin-catalogue:audit.noSuch", "other.code"],
      ]),
    ).toBe("legacy.thing|no.such|other.code");
  });
});
