import { buildDataset } from "./build-dataset";
import { IMPORT_COLLECTIONS } from "./collections";
import { describeJsonValue, isPlainObject } from "./field-basics";
import { jsonProblem, validateDocument, type Source, type SourcesRead } from "./file-sources";
import { parseJson } from "./json-syntax";
import type { LegacyDataset } from "./legacy-dataset";
import { readLocalStorage } from "./read-local-storage";
import type { FileProblem, SourceSummary } from "./report-types";
import type { RawDocument } from "./schema-document";

/*
 * Reading the old storefront's data (spec section 3): its one database document, or a dump of a browser's
 * localStorage with that document under one key plus the legacy separate keys. Nothing here touches the
 * database; legacy-import.server.ts does, in one transaction. See docs/legacy-import.md.
 */

export type ReadResult =
  { ok: true; dataset: LegacyDataset } | { ok: false; problems: FileProblem[] };

/**
 * Reads an import file: (a) the old database document, or (b) a localStorage dump (key → JSON text) with
 * the document under one key and the legacy separate keys beside it. Every problem is found and named
 * before anything is imported; with any problem, nothing is.
 */
export function readLegacyFile(text: string): ReadResult {
  const body = text.replace(/^\uFEFF/, "");
  if (!body.trim()) return refuse("the file is empty");
  const parsed = parseJson(body);
  if (!parsed.ok) return { ok: false, problems: [jsonProblem("", parsed.error)] };
  const root = parsed.value;
  if (!isPlainObject(root))
    return refuse(
      `expected an object (the old storefront's database document or a localStorage dump), found ${describeJsonValue(root)}`,
    );
  const summary: SourceSummary = { shape: "document", mainKey: null, legacyKeys: [], ignored: [] };
  const values = Object.values(root);
  const read =
    values.length > 0 && values.every((value) => typeof value === "string")
      ? readLocalStorage(root as Record<string, string>, summary)
      : readDocument(root, summary);
  if ("refusal" in read) return refuse(read.refusal);
  if (read.problems.length > 0) return { ok: false, problems: read.problems };
  return { ok: true, dataset: buildDataset(read.sources, summary) };
}

function refuse(message: string): ReadResult {
  return { ok: false, problems: [{ path: "", message }] };
}

function readDocument(root: Record<string, unknown>, summary: SourceSummary): SourcesRead {
  if (!IMPORT_COLLECTIONS.some((collection) => collection in root))
    return {
      refusal:
        "this is neither the old storefront's database document (users, services, orders, userServices, announcements, vouchers, settings...) nor a localStorage dump (every value text)",
    };
  summary.ignored = Object.keys(root).filter(
    (key) => !(IMPORT_COLLECTIONS as readonly string[]).includes(key),
  );
  const problems: FileProblem[] = [];
  const source: Source = { prefix: "", index: 0, document: {} as RawDocument };
  validateDocument(root, source, problems);
  return { sources: [source], problems };
}
