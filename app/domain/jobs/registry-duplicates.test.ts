import { describe, expect, it, vi } from "vitest";
import type * as thumbnails from "~/domain/payments/proof-thumbnail-jobs.server";
import { HOUSEKEEPING_JOBS } from "./housekeeping.server";

// One part of the registry listing a job type another part lists already: the proof thumbnails' part,
// given a housekeeping task's type as well (what a copied handler list would do).
vi.mock("~/domain/payments/proof-thumbnail-jobs.server", async (importOriginal) => {
  const real = await importOriginal<typeof thumbnails>();
  return {
    ...real,
    proofThumbnailHandlers: {
      ...real.proofThumbnailHandlers,
      "housekeeping.sessions": async () => ({}),
    },
  };
});

describe("the job registry with a job type listed twice", () => {
  it("refuses to load rather than let one handler replace the other", async () => {
    expect(HOUSEKEEPING_JOBS.sessions).toBe("housekeeping.sessions");
    await expect(import("./registry.server")).rejects.toThrow(
      'The job type "housekeeping.sessions" has two handlers',
    );
  });
});
