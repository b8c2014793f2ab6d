/**
 * A production build of an earlier commit, for a benchmark that compares this build with it in the same
 * run: the commit's files (`git archive`, no checkout of this repository is touched) with its own
 * dependencies, under .tmp/bench-base/<commit>/, built once and kept for later runs.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";

/**
 * main just before React hydrated the signed-in pages again (Preact 10 in the browser, React Router 7):
 * the server budget of the signed-in pages is measured against it. BENCH_BASE_COMMIT names another.
 */
export const PRE_REACT_COMMIT = "b45e104";

/** The folder of `commit`'s production build, made now when it is not there yet. */
export function baseBuild(commit = process.env.BENCH_BASE_COMMIT ?? PRE_REACT_COMMIT): string {
  const sha = execFileSync("git", ["rev-parse", "--verify", `${commit}^{commit}`], {
    encoding: "utf8",
  }).trim();
  const dir = path.resolve(".tmp/bench-base", sha.slice(0, 12));
  const build = path.join(dir, "build");
  if (existsSync(path.join(build, "server", "main.js"))) return build;
  console.log(`Building ${commit} (${sha.slice(0, 12)}) into ${dir} for the comparison...`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync("sh", ["-c", `git archive ${sha} | tar -x -C "${dir}"`], { stdio: "inherit" });
  // This checkout's packages first, so that npm only changes what differs (better-sqlite3 is not
  // compiled again when its version is the same); npm install keeps to the commit's lockfile.
  if (existsSync("node_modules"))
    cpSync("node_modules", path.join(dir, "node_modules"), {
      recursive: true,
      verbatimSymlinks: true,
    });
  const run = (args: string[], env: Record<string, string> = {}) => {
    const result = spawnSync("npm", args, {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: "inherit",
    });
    if (result.status !== 0) throw new Error(`npm ${args.join(" ")} failed in ${dir}`);
  };
  run(["install", "--no-audit", "--no-fund"]);
  run(["run", "build"], { BUILD_DIR: build });
  return build;
}
