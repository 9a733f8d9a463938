// The browser's API client. Requests are same-origin and carry the session cookie; the API key
// itself never reaches the browser after sign-in.

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: unknown;
  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.name = "ApiError";
  }
}

interface RequestOptions {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  /** Sign-in itself must not bounce to the sign-in page on 401. */
  noAuthRedirect?: boolean;
}

const AUTH_CODES = new Set(["missing_api_key", "invalid_api_key", "invalid_session"]);

/** Retries of a request the server refused with 429 (API_RATE_LIMIT), and the longest wait honoured. */
export const RATE_LIMIT_RETRIES = 3;
const MAX_RETRY_WAIT_MS = 10_000;

export const RATE_LIMITED_MESSAGE =
  "Too many requests right now: the server asked to slow down. Wait a few seconds and try again.";

/** How long a 429 asks to wait (Retry-After in seconds), bounded; null when it should not be retried. */
export function retryWaitMs(
  res: { status: number; headers: { get(name: string): string | null } },
  attempt: number,
): number | null {
  if (res.status !== 429 || attempt >= RATE_LIMIT_RETRIES) return null;
  const seconds = Number(res.headers.get("retry-after"));
  const wait = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000 * 2 ** attempt;
  return wait > MAX_RETRY_WAIT_MS ? null : wait;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  let res: Response;
  // A 429 is refused before the server reads the request, so any method may be sent again.
  for (let attempt = 0; ; attempt++) {
    res = await fetch(path, {
      method: opts.method ?? (opts.body === undefined ? "GET" : "POST"),
      headers: opts.body === undefined ? undefined : { "content-type": "application/json" },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
      credentials: "same-origin",
    });
    const wait = retryWaitMs(res, attempt);
    if (wait === null) break;
    await res.body?.cancel().catch(() => undefined);
    await sleep(wait, opts.signal);
  }
  // res.json() parses without first building one large string: rows pages can be megabytes.
  const isJson = (res.headers.get("content-type") ?? "").includes("json");
  const data: unknown = isJson ? await res.json().catch(() => null) : null;
  if (!res.ok) {
    const err = (data as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
    const message = res.status === 429 ? RATE_LIMITED_MESSAGE : (err?.message ?? `Request failed (${res.status}).`);
    const error = new ApiError(res.status, err?.code ?? "http_error", message, err?.details);
    if (res.status === 401 && AUTH_CODES.has(error.code) && !opts.noAuthRedirect && typeof window !== "undefined") {
      window.location.assign(`/sign-in?next=${encodeURIComponent(window.location.pathname)}`);
    }
    throw error;
  }
  return data as T;
}

export const errorMessage = (e: unknown) => (e instanceof Error ? e.message : "Something went wrong.");

export const basePath = (baseId: string) => `/api/v1/bases/${encodeURIComponent(baseId)}`;

export const columnPath = (baseId: string, columnId: string) =>
  `${basePath(baseId)}/columns/${encodeURIComponent(columnId)}`;

export const evaluationPath = (evaluationId: string) => `/api/v1/evaluations/${encodeURIComponent(evaluationId)}`;
