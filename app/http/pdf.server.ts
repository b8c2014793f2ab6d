/**
 * A PDF file download: an attachment with its file name, never cached, never sniffed as anything else
 * (a customer's own document). The name is ours (a document number: ASCII, no quotes), so it goes into
 * the header as it is.
 */
export function pdfResponse(file: { filename: string; bytes: Uint8Array<ArrayBuffer> }): Response {
  return new Response(file.bytes, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Content-Length": String(file.bytes.byteLength),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}

/** What a file route answers for what is not there, or not the reader's: a plain 404, never cached. */
export function fileNotFound(): Response {
  return new Response("Not Found", {
    status: 404,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}
