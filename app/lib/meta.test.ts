import { describe, expect, it } from "vitest";
import { pageMeta } from "./meta";

const root = (seo: { description: string; keywords: string }) => ({
  settings: { general: { siteName: "Atlas Hosting" } },
  seo,
});

describe("pageMeta", () => {
  it("titles a page with the site name, and falls back to the SEO description", () => {
    const tags = pageMeta(
      { title: "Contact" },
      root({ description: "Fast servers", keywords: "" }),
    );
    expect(tags).toContainEqual({ title: "Contact | Atlas Hosting" });
    expect(tags).toContainEqual({ name: "description", content: "Fast servers" });
    expect(tags).toContainEqual({ property: "og:site_name", content: "Atlas Hosting" });
    expect(tags.some((tag) => "name" in tag && tag.name === "keywords")).toBe(false);
  });

  it("uses a whole SEO title as written, the page's own description, and the keywords", () => {
    const tags = pageMeta(
      { fullTitle: "Cheap SA-MP hosting", title: "Home", description: "Our plans" },
      root({ description: "Fast servers", keywords: "samp, mta" }),
    );
    expect(tags).toContainEqual({ title: "Cheap SA-MP hosting" });
    expect(tags).toContainEqual({ property: "og:title", content: "Cheap SA-MP hosting" });
    expect(tags).toContainEqual({ name: "description", content: "Our plans" });
    expect(tags).toContainEqual({ name: "keywords", content: "samp, mta" });
  });
});
