// The browser's API client. Requests are same-origin and carry the session cookie; the API key
// itself never reaches the browser after sign-in.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
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

export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await fetch(path, {
    method: opts.method ?? (opts.body === undefined ? "GET" : "POST"),
    headers: opts.body === undefined ? undefined : { "content-type": "application/json" },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: opts.signal,
    credentials: "same-origin",
  });
  // res.json() parses without first building one large string: rows pages can be megabytes.
  const isJson = (res.headers.get("content-type") ?? "").includes("json");
  const data: unknown = isJson ? await res.json().catch(() => null) : null;
  if (!res.ok) {
    const err = (data as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
    const error = new ApiError(res.status, err?.code ?? "http_error", err?.message ?? `Request failed (${res.status}).`, err?.details);
    if (res.status === 401 && AUTH_CODES.has(error.code) && !opts.noAuthRedirect && typeof window !== "undefined") {
      window.location.assign(`/sign-in?next=${encodeURIComponent(window.location.pathname)}`);
    }
    throw error;
  }
  return data as T;
}

export const errorMessage = (e: unknown) => (e instanceof Error ? e.message : "Something went wrong.");

export const basePath = (baseId: string) => `/api/v1/bases/${encodeURIComponent(baseId)}`;
