/**
 * True when the browser posted a form as a page navigation (before the page hydrated, or with no
 * JavaScript at all) rather than through a fetcher, which expects data back. Fetch metadata says so
 * directly; a browser without it asks for HTML when it navigates.
 */
export function isDocumentSubmission(request: Request): boolean {
  const mode = request.headers.get("sec-fetch-mode");
  if (mode) return mode === "navigate";
  return (request.headers.get("accept") ?? "").includes("text/html");
}
