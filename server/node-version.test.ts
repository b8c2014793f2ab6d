import { describe, expect, it } from "vitest";
import packageJson from "../package.json" with { type: "json" };
import { isOlderThan, nodeVersionProblem, PINNED_NODE_VERSION } from "./node-version";

describe("the Node.js version check", () => {
  it.each([
    ["v20.20.2", "24.21.0", true],
    ["v24.20.9", "24.21.0", true],
    ["v24.21.0", "24.21.0", false],
    ["24.21.1", "24.21.0", false],
    ["v24.22.0", "24.21.0", false],
    ["v26.0.0", "24.21.0", false],
    ["v24.9.0", "24.21.0", true],
    ["nonsense", "24.21.0", true],
  ])("%s is older than %s: %s", (running, minimum, older) => {
    expect(isOlderThan(running, minimum)).toBe(older);
  });

  it("refuses an older Node with a message that says how to start the site", () => {
    const message = nodeVersionProblem("v20.20.2", "24.21.0");
    expect(message).toContain("Node.js 24.21.0");
    expect(message).toContain("v20.20.2");
    expect(message).toContain("npm start");
    expect(message).toContain("not with `node server/...`");
    expect(nodeVersionProblem("v24.21.0", "24.21.0")).toBeNull();
  });

  it("pins one exact Node.js for every platform it installs, and engines follows its major", () => {
    const pins = Object.values(packageJson.optionalDependencies);
    expect(new Set(pins)).toEqual(new Set([PINNED_NODE_VERSION]));
    expect(PINNED_NODE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(packageJson.engines.node).toBe(`>=${PINNED_NODE_VERSION.split(".")[0]}`);
  });

  it("is the Node these tests run on (npm scripts run the pinned one)", () => {
    expect(nodeVersionProblem()).toBeNull();
  });
});
