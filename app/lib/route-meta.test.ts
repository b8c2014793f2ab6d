import { describe, expect, expectTypeOf, it } from "vitest";
import type { RootData } from "~/root";
import type { pageMeta } from "./meta";
import { metaFor } from "./route-meta";

describe("metaFor", () => {
  it("reads the site name and SEO tags from the root loader's data", () => {
    const root = {
      settings: { general: { siteName: "Atlas Hosting" } },
      seo: { description: "Fast servers", keywords: "minecraft" },
    };
    const tags = metaFor({ meta: { title: "Contact" } }, [
      undefined,
      { id: "root", loaderData: root },
    ]);
    expect(tags).toContainEqual({ title: "Contact | Atlas Hosting" });
    expect(tags).toContainEqual({ name: "keywords", content: "minecraft" });
  });

  it("has the root loader's data carry what the meta tags read", () => {
    // app/lib may not import app/root.tsx (docs/architecture.md), so the check that the two agree is here.
    expectTypeOf<RootData>().toExtend<NonNullable<Parameters<typeof pageMeta>[1]>>();
  });
});
