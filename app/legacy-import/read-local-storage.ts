import { IMPORT_COLLECTIONS, LEGACY_KEYS } from "./collections";
import { isPlainObject } from "./field-basics";
import {
  formatPath,
  jsonProblem,
  storageRef,
  validateDocument,
  type Source,
  type SourcesRead,
} from "./file-sources";
import { parseJson } from "./json-syntax";
import type { FileProblem, SourceSummary } from "./report-types";
import { legacyKeySchemas, type RawDocument } from "./schema-document";

const looksLikeDocument = (value: unknown): value is Record<string, unknown> =>
  isPlainObject(value) &&
  IMPORT_COLLECTIONS.some((c) => c !== "settings" && Array.isArray(value[c]));

/** A localStorage dump: the database document under one key, the legacy separate keys beside it. */
export function readLocalStorage(
  root: Record<string, string>,
  summary: SourceSummary,
): SourcesRead {
  summary.shape = "localStorage";
  const problems: FileProblem[] = [];
  const sources: Source[] = [];
  const candidates: [string, unknown][] = [];
  for (const [key, value] of Object.entries(root)) {
    if ((LEGACY_KEYS as readonly string[]).includes(key)) continue;
    const inner = parseJson(value);
    if (inner.ok && looksLikeDocument(inner.value)) candidates.push([key, inner.value]);
    else summary.ignored.push(key);
  }
  if (candidates.length > 1)
    return {
      refusal: `several keys hold a database document (${candidates.map(([k]) => JSON.stringify(k)).join(", ")}): keep the one to import and run again`,
    };
  if (candidates[0]) {
    summary.mainKey = candidates[0][0];
    sources.push({ prefix: storageRef(candidates[0][0]), index: 0, document: {} as RawDocument });
    validateDocument(candidates[0][1], sources[0]!, problems);
  }
  readLegacyKeys(root, sources, problems);
  if (problems.length === 0 && sources.length === 0)
    return {
      refusal:
        "this localStorage dump holds none of the old storefront's data: no key holds its database document (an object with users, services, orders...) and there is no users, orders or userServices key",
    };
  return { sources, problems };
}

function readLegacyKeys(root: Record<string, string>, sources: Source[], problems: FileProblem[]) {
  for (const key of LEGACY_KEYS) {
    const value = root[key];
    if (typeof value !== "string" || !value.trim()) continue;
    const inner = parseJson(value);
    if (!inner.ok) {
      problems.push(jsonProblem(storageRef(key), inner.error));
      continue;
    }
    if (inner.value === null) continue;
    const source: Source = { prefix: storageRef(key), index: sources.length, legacyKey: key };
    const result = legacyKeySchemas[key].safeParse(inner.value);
    if (!result.success) {
      for (const issue of result.error.issues)
        problems.push({ path: formatPath(source.prefix, issue.path), message: issue.message });
    } else if (result.data !== null && result.data !== undefined) {
      source.legacy = result.data;
      sources.push(source);
    }
  }
}
