import { describe, expect, it } from "vitest";
import packageJson from "../package.json" with { type: "json" };
import { serverArguments, serverEnvPrefix, SERVER_ENV } from "./command";

describe("how production starts the server", () => {
  it("is what `npm run serve` runs", () => {
    expect(packageJson.scripts.serve).toBe(
      `cross-env NODE_ENV=production ${serverEnvPrefix()} node ${serverArguments().join(" ")}`,
    );
  });

  it("keeps glibc to two malloc arenas and maps large blocks apart", () => {
    expect(SERVER_ENV).toEqual({ MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" });
    expect(serverEnvPrefix()).toBe("MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072");
  });

  it("runs the compiled entry of the given build folder, with the memory flags", () => {
    expect(serverArguments(".tmp/bench-build/")).toEqual([
      "--max-semi-space-size=8",
      "--v8-pool-size=1",
      ".tmp/bench-build/server/main.js",
    ]);
  });

  it("builds that entry with `npm run build`", () => {
    expect(packageJson.scripts.build).toContain("scripts/build-server.ts");
  });
});
