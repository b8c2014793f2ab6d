import pino from "pino";

/** How long a log line may wait in the buffer before it is written. */
export const LOG_FLUSH_MS = 1000;

/**
 * Where the server's log lines go: standard output, written in the background in pieces of about 4 KiB,
 * and at least once a second, instead of one synchronous write per line. With a line per request
 * (LOG_LEVEL=info, server/request-log.ts), the synchronous write cost a signed-in page 7 to 15% of its
 * CPU (measured: git log -p docs/performance.md, "Signed-in page CPU"). pino writes what is left when
 * the process exits (an error, a signal, `process.exit`); a process killed outright (SIGKILL, out of
 * memory) loses at most the last second of lines.
 */
export function logDestination() {
  return pino.destination({
    dest: 1,
    sync: false,
    minLength: 4096,
    periodicFlush: LOG_FLUSH_MS,
  });
}
