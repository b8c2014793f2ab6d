import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readEnhanceScript } from "./enhance-script.server";

let dir: string | undefined;

function buildWith(name: string, code: string) {
  dir = mkdtempSync(path.join(tmpdir(), "hostfront-enhance-"));
  mkdirSync(path.join(dir, "client/assets"), { recursive: true });
  writeFileSync(path.join(dir, "client/assets", name), code);
  return dir;
}

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("the enhance script written into the page", () => {
  it("is read from the production build's client folder", () => {
    const buildDir = buildWith("entry.enhance-a1.js", "(function(){document.title='x'})();");
    expect(readEnhanceScript("/assets/entry.enhance-a1.js", { production: true, buildDir })).toBe(
      "(function(){document.title='x'})();",
    );
  });

  it("is not written in when the page should link the file instead", () => {
    const buildDir = buildWith("entry.enhance-b2.js", "let a='</script><script>alert(1)';");
    // Text that would end the element early.
    expect(readEnhanceScript("/assets/entry.enhance-b2.js", { production: true, buildDir })).toBe(
      null,
    );
    // Under the development server the URL is Vite's own, not a built file.
    expect(readEnhanceScript("/assets/entry.enhance-b2.js", { production: false, buildDir })).toBe(
      null,
    );
    // A build without the file.
    expect(readEnhanceScript("/assets/entry.enhance-c3.js", { production: true, buildDir })).toBe(
      null,
    );
    // Nothing outside the build's assets is read.
    expect(readEnhanceScript("/../../etc/passwd", { production: true, buildDir })).toBe(null);
    writeFileSync(path.join(buildDir, "client", "outside.js"), "(function(){})();");
    expect(readEnhanceScript("/assets/../outside.js", { production: true, buildDir })).toBe(null);
  });
});
