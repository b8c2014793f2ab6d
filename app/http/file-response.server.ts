/**
 * The policy an uploaded file is served under: nothing of it runs, loads or submits anything, and the
 * document is a sandbox (a unique origin), so a file that a browser would read as HTML or SVG anyway
 * could not script the site's origin.
 */
export const UPLOADED_IMAGE_POLICY =
  "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'self'";

/**
 * A Content-Disposition for a file a person named: a plain ASCII `filename` for old clients (every
 * character outside printable ASCII, and quotes and backslashes, as "_"), and the UTF-8 name in RFC 5987's
 * `filename*` when they differ (an Arabic or accented name).
 */
export function contentDisposition(kind: "inline" | "attachment", name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  if (fallback === name) return `${kind}; filename="${name}"`;
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * A stored upload under its name, read as the type its content was found to be (nosniff), under a
 * policy that lets nothing in it run as the site, and kept by no cache. An image is shown in the
 * browser; anything else is downloaded (an attachment): a PDF opened in the browser's viewer would be a
 * document of the site's origin with its own scripts, since the viewers refuse to open in a sandbox, and
 * a text log is read in an editor, in its UTF-8 (the only text an upload may be).
 */
export function uploadedFileResponse(file: {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}): Response {
  const image = file.contentType.startsWith("image/");
  const text = file.contentType === "text/plain";
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "Content-Type": text ? "text/plain; charset=utf-8" : file.contentType,
      "Content-Length": String(file.bytes.length),
      "Content-Disposition": contentDisposition(image ? "inline" : "attachment", file.fileName),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
      "Content-Security-Policy": UPLOADED_IMAGE_POLICY,
      "Cross-Origin-Resource-Policy": "same-origin",
    },
  });
}
