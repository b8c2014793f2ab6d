/**
 * npm run import:legacy -- <file.json> [--dry-run]
 * Imports the old storefront's data (its database document, or a localStorage dump) into the database
 * named by DATABASE_URL. Running it again with the same file imports nothing twice. See
 * docs/legacy-import.md.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { ConfigError, getEnv } from "../app/config/env.server";
import { createServices, prepareDatabase } from "../app/context.server";
import { formatRefusal, formatReport } from "../app/legacy-import/legacy-import-report";
import { importLegacyFile } from "../app/legacy-import/legacy-import.server";

const usage = "Usage: npm run import:legacy -- <file.json> [--dry-run]";

async function main(argv: string[]): Promise<number> {
  const flags = argv.filter((a) => a.startsWith("--"));
  const files = argv.filter((a) => !a.startsWith("--"));
  const unknown = flags.filter((f) => f !== "--dry-run");
  if (files.length !== 1 || unknown.length > 0) {
    console.error(usage);
    return 2;
  }
  const file = files[0]!;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    console.error(
      code === "ENOENT"
        ? `No file at ${file}`
        : `Cannot read ${file}: ${code ?? (error instanceof Error ? error.message : String(error))}`,
    );
    return 1;
  }

  const services = createServices(getEnv());
  try {
    // Migrated and seeded as at start-up, so matching against the catalogue and settings is the same
    // whether or not the server has run yet.
    await prepareDatabase(services);
    const result = await importLegacyFile(services.db, {
      text,
      fileName: path.basename(file),
      dryRun: flags.includes("--dry-run"),
    });
    if (!result.ok) {
      for (const line of formatRefusal(file, result.problems)) console.error(line);
      return 1;
    }
    for (const line of formatReport(result.report)) console.log(line);
    return 0;
  } finally {
    await services.database.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      error instanceof ConfigError
        ? error.message
        : `Import failed, nothing was imported: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  },
);
