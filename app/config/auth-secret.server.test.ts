import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  applySecretRestore,
  authSecretFile,
  backupSecretFile,
  planSecretRestore,
  saveSecretWithBackup,
  secretRestoreRefusal,
  writeSecretFile,
} from "./auth-secret.server";

const mode = (file: string) => statSync(file).mode & 0o777;

describe("the auth secret beside a backup", () => {
  let dir: string;
  let dataDir: string;
  let backup: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "hostfront-secret-"));
    dataDir = path.join(dir, "data");
    backup = path.join(dir, "backups", "2031-03-12.db");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const plan = (options: { env?: string; replace?: boolean; keep?: boolean } = {}) =>
    planSecretRestore({
      backupFile: backup,
      environmentSecret: options.env,
      dataDir,
      replace: options.replace ?? false,
      keep: options.keep ?? false,
    });

  it("writes a secret readable by its owner only, even over a looser file", () => {
    const file = path.join(dir, "secret");
    writeFileSync(file, "old", { mode: 0o644 });
    chmodSync(file, 0o644);
    writeSecretFile(file, "new-secret");
    expect(readFileSync(file, "utf8")).toBe("new-secret");
    expect(mode(file)).toBe(0o600);
    // Nothing left behind from the write.
    expect(readdirSync(dir)).toEqual(["secret"]);
  });

  it("keeps a generated secret beside the backup (mode 600), and none that AUTH_SECRET sets", () => {
    expect(saveSecretWithBackup(backup, { value: "generated", fromEnvironment: false })).toEqual({
      kind: "written",
      file: `${backup}.auth-secret`,
    });
    expect(readFileSync(backupSecretFile(backup), "utf8")).toBe("generated");
    expect(mode(backupSecretFile(backup))).toBe(0o600);

    const other = path.join(dir, "other.db");
    expect(saveSecretWithBackup(other, { value: "from-env", fromEnvironment: true })).toEqual({
      kind: "environment",
    });
    expect(() => statSync(backupSecretFile(other))).toThrow();
  });

  it("puts the backup's secret in place on a machine that has none", () => {
    writeSecretFile(backupSecretFile(backup), "backup-secret");
    const restore = plan();
    expect(restore).toMatchObject({ kind: "write", target: authSecretFile(dataDir) });
    expect(secretRestoreRefusal(restore)).toBeNull();
    expect(applySecretRestore(restore)).toContain("Restored the auth secret");
    expect(readFileSync(authSecretFile(dataDir), "utf8")).toBe("backup-secret");
    expect(mode(authSecretFile(dataDir))).toBe(0o600);
    expect(plan()).toMatchObject({ kind: "same" });
  });

  it("refuses to overwrite a different secret without a flag; replaces it keeping the old aside, or keeps it", () => {
    writeSecretFile(backupSecretFile(backup), "backup-secret");
    writeSecretFile(authSecretFile(dataDir), "current-secret");
    expect(secretRestoreRefusal(plan())).toMatch(/holds another secret.*\n.*--replace-secret/);

    const keep = plan({ keep: true });
    expect(secretRestoreRefusal(keep)).toBeNull();
    expect(applySecretRestore(keep)).toContain("Kept the current");
    expect(readFileSync(authSecretFile(dataDir), "utf8")).toBe("current-secret");

    const replace = plan({ replace: true });
    expect(secretRestoreRefusal(replace)).toBeNull();
    const said = applySecretRestore(replace, new Date("2031-03-12T04:17:00.000Z"));
    const aside = `${authSecretFile(dataDir)}.replaced-2031-03-12T04-17-00-000Z`;
    expect(said).toContain(aside);
    expect(readFileSync(authSecretFile(dataDir), "utf8")).toBe("backup-secret");
    expect(readFileSync(aside, "utf8")).toBe("current-secret");
    expect(mode(authSecretFile(dataDir))).toBe(0o600);
    expect(mode(aside)).toBe(0o600);
  });

  it("checks AUTH_SECRET against the backup's instead of writing a file", () => {
    writeSecretFile(backupSecretFile(backup), "backup-secret");
    expect(plan({ env: "backup-secret" })).toEqual({ kind: "environmentMatches" });
    const differs = plan({ env: "another" });
    expect(secretRestoreRefusal(differs)).toMatch(/^AUTH_SECRET in the environment is not/);
    expect(secretRestoreRefusal(plan({ env: "another", keep: true }))).toBeNull();
    expect(() => statSync(authSecretFile(dataDir))).toThrow();
  });

  it("restores an older backup without a secret, saying what that means", () => {
    const older = plan();
    expect(older).toMatchObject({ kind: "notInBackup", environment: false });
    expect(secretRestoreRefusal(older)).toBeNull();
    expect(applySecretRestore(older)).toMatch(/^No auth secret beside the backup/);
    expect(applySecretRestore(plan({ env: "x" }))).toMatch(/AUTH_SECRET from the environment/);
  });
});
