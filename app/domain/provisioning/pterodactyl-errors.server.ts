import { isRecord } from "./pterodactyl-answers.server";

// How a call to the panel fails: the panel answered with an error (PanelError), or no answer came
// (PanelUnreachable); and which of these another attempt may cure. A local address refused
// (PanelAddressRefused) is the transport's own (panel-transport.server.ts).

/** One entry of the panel's `errors` array. */
export interface PanelErrorItem {
  code: string;
  status: string;
  detail: string;
  meta: Record<string, unknown> | null;
}

/** The panel answered with an error status (or with something that is not its API). */
export class PanelError extends Error {
  override readonly name = "PanelError";
  /** The HTTP status of the answer. */
  readonly status: number;
  /** errors[0].code (`ValidationException`, `NotFoundHttpException`...), "HttpError" when the body is not the panel's. */
  readonly code: string;
  readonly detail: string;
  /** errors[0].meta: for a validation error `{ source_field, rule }`. */
  readonly meta: Record<string, unknown> | null;
  readonly retryAfterSeconds: number | null;
  /** Every entry of `errors` (a 422 has one per failed rule); empty when the body was not the panel's. */
  readonly errors: PanelErrorItem[];
  readonly method: string;
  readonly path: string;

  constructor(init: {
    status: number;
    code: string;
    detail: string;
    meta?: Record<string, unknown> | null;
    retryAfterSeconds?: number | null;
    errors?: PanelErrorItem[];
    method: string;
    path: string;
  }) {
    super(
      `The panel refused ${init.method} ${init.path}: ${init.code} (${init.status}) ${init.detail}`,
    );
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.meta = init.meta ?? null;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.errors = init.errors ?? [];
    this.method = init.method;
    this.path = init.path;
  }
}

/** No answer: the request timed out, or the connection failed or was lost before the answer was read. */
export class PanelUnreachable extends Error {
  override readonly name = "PanelUnreachable";
  readonly kind: "timeout" | "network";
  readonly method: string;
  readonly path: string;

  constructor(
    kind: "timeout" | "network",
    init: { method: string; path: string; timeoutMs: number; cause?: unknown },
  ) {
    super(
      kind === "timeout"
        ? `The panel did not answer ${init.method} ${init.path} within ${init.timeoutMs} ms`
        : `The panel could not be reached for ${init.method} ${init.path}: ${describeCause(init.cause)}`,
      { cause: init.cause },
    );
    this.kind = kind;
    this.method = init.method;
    this.path = init.path;
  }
}

/**
 * Whether another attempt may succeed: no answer (timeout, network), too many requests (429) or a fault
 * on the panel's side (5xx). A 4xx other than 429 says the request itself is wrong and will stay wrong.
 * A timed-out or lost write may have been done on the panel: callers look it up before writing again.
 */
export function isRetryablePanelFailure(error: unknown): boolean {
  // PanelAddressRefused is not: the address stays where it is until an admin changes it or the rule.
  if (error instanceof PanelUnreachable) return true;
  if (error instanceof PanelError) return error.status === 429 || error.status >= 500;
  return false;
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // Node's own error ("connect ECONNREFUSED 10.1.2.3:443"): its code, not the address it tried.
  const own = (cause as { code?: unknown }).code;
  if (typeof own === "string") return `the connection failed (${own})`;
  const inner = cause.cause;
  if (isRecord(inner) || inner instanceof Error) {
    const code = (inner as { code?: unknown }).code;
    const message = (inner as { message?: unknown }).message;
    if (typeof code === "string") return `${cause.message} (${code})`;
    if (typeof message === "string") return `${cause.message} (${message})`;
  }
  return cause.message;
}
