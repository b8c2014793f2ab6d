import { describe, expect, it } from "vitest";
import { renderHtml } from "../../../tests/support/render-html";
import { useKnownLabel } from "./known-label";

function Labels({ keys }: { keys: [string | undefined, string][] }) {
  const label = useKnownLabel();
  return keys.map(([key, fallback]) => label(key, fallback)).join("|");
}

function render(keys: [string | undefined, string][], locale: "en" | "fr" = "en") {
  return renderHtml(<Labels keys={keys} />, locale);
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
