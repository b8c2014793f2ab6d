/**
 * A multipart/form-data body (RFC 7578) read in place: each part's bytes are a view of the body, not a
 * copy. `Request.formData()` copied an upload three times over (the body gathered, each file a Blob, each
 * Blob read out again): 15 MB of proofs held 60 while one post was read (`npm run bench:proofs`).
 */

export interface MultipartPart {
  name: string;
  /** The file's name as sent (empty for a file input left empty, or a file sent without a name); null for a text field. */
  filename: string | null;
  /** A view of the body: no copy. */
  data: Uint8Array;
}

const CRLF = Buffer.from("\r\n");
const HEADERS_END = Buffer.from("\r\n\r\n");
const utf8 = new TextDecoder("utf-8");

/** The boundary a multipart/form-data Content-Type names, or null. */
export function multipartBoundary(contentType: string): string | null {
  if (!/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))\s*(?:;|$)/i.exec(contentType);
  return match ? (match[1] ?? match[2]!) : null;
}

/**
 * A parameter of a Content-Disposition header (`name`, `filename`), as browsers write it: quoted, with a
 * quote and line ends escaped as %22, %0D and %0A (the HTML standard), or a backslash before them.
 */
function dispositionParameter(header: string, parameter: string): string | null {
  const pattern = new RegExp(`;\\s*${parameter}="((?:[^"\\\\]|\\\\.)*)"`, "i");
  const match = pattern.exec(header);
  if (!match) return null;
  return match[1]!
    .replace(/\\(.)/g, "$1")
    .replace(/%22/g, '"')
    .replace(/%0D/gi, "\r")
    .replace(/%0A/gi, "\n");
}

/** The parts of `body`, in order, or null when it is not a whole multipart body for `boundary`. */
export function parseMultipart(body: Uint8Array, boundary: string): MultipartPart[] | null {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const dashBoundary = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.concat([CRLF, dashBoundary]);
  // The first boundary opens the body, or follows a preamble and its line end.
  let at: number;
  if (bytes.subarray(0, dashBoundary.length).equals(dashBoundary)) at = dashBoundary.length;
  else {
    const first = bytes.indexOf(delimiter);
    if (first === -1) return null;
    at = first + delimiter.length;
  }
  const parts: MultipartPart[] = [];
  for (;;) {
    // After a boundary: "--" ends the body, a line end opens a part.
    if (bytes[at] === 0x2d && bytes[at + 1] === 0x2d) return parts;
    if (bytes[at] !== 0x0d || bytes[at + 1] !== 0x0a) return null;
    const headersStart = at + 2;
    const headersEnd = bytes.indexOf(HEADERS_END, headersStart);
    if (headersEnd === -1) return null;
    const headers = utf8.decode(bytes.subarray(headersStart, headersEnd)).split("\r\n");
    const disposition = headers.find((line) => /^content-disposition\s*:/i.test(line));
    const name = disposition ? dispositionParameter(disposition, "name") : null;
    if (!disposition || !/:\s*form-data\b/i.test(disposition) || name === null) return null;
    const dataStart = headersEnd + HEADERS_END.length;
    const dataEnd = bytes.indexOf(delimiter, dataStart);
    if (dataEnd === -1) return null;
    // A file's part names its file, or at least its type (a file without a name: undici leaves the
    // name out); a text field's part says neither.
    const typed = headers.some((line) => /^content-type\s*:/i.test(line));
    parts.push({
      name,
      filename: dispositionParameter(disposition, "filename") ?? (typed ? "" : null),
      data: body.subarray(dataStart, dataEnd),
    });
    at = dataEnd + delimiter.length;
  }
}
