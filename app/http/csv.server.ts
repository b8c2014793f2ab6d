/**
 * A CSV file download: an attachment with its (dated) file name, UTF-8, never cached (admin data).
 * The name is ours (ASCII, no quotes), so it goes into the header as it is.
 */
export function csvResponse(file: { filename: string; body: string }): Response {
  return new Response(file.body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "no-store",
    },
  });
}
