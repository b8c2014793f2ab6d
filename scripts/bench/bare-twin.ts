import { responseCompression } from "../../server/response-compression";
import { servePage } from "../../tests/support/raw-http";

/**
 * A page's bare twin (issue 23): a bare Express handler that answers every request with the same bytes
 * through the server's own compression middleware (server/index.ts), so the twin does the same work per
 * byte as the app and the difference between the two is the app's. Until session 43 the twin used
 * compression's defaults (brotli quality 4, a 4 MiB window) where the server compresses pages at quality
 * 3 (PAGE_COMPRESSION): three times the work on a signed-in page, a twin's p95 of 14 to 20 ms instead
 * of 5 to 7, and so a dashboard budget three times too loose.
 */
export function bareTwin(bytes: string): Promise<{ url: string; close: () => void }> {
  return servePage(responseCompression(), bytes);
}
