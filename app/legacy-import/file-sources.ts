import type { ImportCollection, LegacyKey } from "./collections";
import type { JsonSyntaxError } from "./json-syntax";
import type { FileProblem } from "./report-types";
import { documentSchema, type RawDocument } from "./schema-document";

/** One part of an import file: the database document, or one legacy localStorage key. */
export interface Source {
  /** How this source is named in paths: "" for the document, `localStorage["users"]` for a key. */
  prefix: string;
  index: number;
  document?: RawDocument;
  legacyKey?: LegacyKey;
  legacy?: unknown;
}

/** One record of a collection with its source and the place it came from. */
export interface SourcedRecord<T> {
  source: Source;
  ref: string;
  record: T;
}

/** The sources a file holds and its problems, or why it is not the old storefront's data at all. */
export type SourcesRead = { sources: Source[]; problems: FileProblem[] } | { refusal: string };

export function formatPath(prefix: string, path: PropertyKey[]): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

export const storageRef = (key: string) => `localStorage[${JSON.stringify(key)}]`;

export function jsonProblem(where: string, error: JsonSyntaxError): FileProblem {
  return {
    path: where,
    message: `not valid JSON: line ${error.line}, column ${error.column}: ${error.message}`,
  };
}

/** Where a record came from: `users[3]`, `localStorage["db"].users[3]`, `localStorage["users"][3]`. */
function recordRef(source: Source, collection: string, index: number | null): string {
  if (source.document)
    return formatPath(source.prefix, [collection, ...(index === null ? [] : [index])]);
  return formatPath(source.prefix, index === null ? [] : [index]);
}

/** The records of one collection from every source, in precedence order (the document first). */
export function recordsOf<T>(sources: Source[], collection: LegacyKey | ImportCollection) {
  const out: SourcedRecord<T>[] = [];
  const add = (source: Source, record: unknown, index: number | null) =>
    out.push({ source, ref: recordRef(source, collection, index), record: record as T });
  for (const source of sources) {
    if (source.document) {
      const records = source.document[collection as keyof RawDocument];
      if (Array.isArray(records)) records.forEach((record, index) => add(source, record, index));
    } else if (
      source.legacyKey === collection ||
      (collection === "users" && source.legacyKey === "currentUser")
    ) {
      if (Array.isArray(source.legacy))
        source.legacy.forEach((record, index) => add(source, record, index));
      else if (source.legacy) add(source, source.legacy, null);
    }
  }
  return out;
}

/** Checks the database document; its records become the source's, or its problems are listed. */
export function validateDocument(value: unknown, source: Source, problems: FileProblem[]) {
  const result = documentSchema.safeParse(value);
  if (!result.success) {
    for (const issue of result.error.issues)
      problems.push({ path: formatPath(source.prefix, issue.path), message: issue.message });
    return;
  }
  source.document = result.data;
}
