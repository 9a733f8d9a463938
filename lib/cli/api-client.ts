// A small client of a running Cellwright's REST API for CLI commands that must not open the
// database (the server holds it). Every failure becomes one readable sentence: the API's error
// envelope {error: {code, message}} as "message (code)", a refused connection as a hint to start
// the server or pass --url.

export interface ApiClientOptions {
  /** The server's origin, e.g. http://127.0.0.1:3000. */
  url: string;
  apiKey: string;
}

/** The server answered with an error envelope (or something that is not JSON). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.name = "ApiError";
  }
}

export interface ApiClient {
  get<T>(path: string, query?: Record<string, string | undefined>): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
}

type Query = Record<string, string | undefined>;

// The API limits requests per key; a CLI paging through a large base may touch it, so it waits
// as told rather than failing half-way through a label import.
const MAX_RATE_LIMIT_WAITS = 5;
const REQUEST_TIMEOUT_MS = 60_000;

export function apiClient({ url, apiKey }: ApiClientOptions): ApiClient {
  let origin: URL;
  try {
    origin = new URL(url);
  } catch {
    throw new Error(`"${url}" is not a URL; pass the server's address, e.g. --url http://127.0.0.1:3000.`);
  }

  async function send<T>(method: "GET" | "POST", path: string, query?: Query, body?: unknown): Promise<T> {
    const target = new URL(path, origin);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) target.searchParams.set(k, v);
    for (let waits = 0; ; waits++) {
      let res: Response;
      try {
        res = await fetch(target, {
          method,
          headers: { "x-api-key": apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (e) {
        throw new Error(
          `Cellwright at ${origin.origin} did not answer (${causeOf(e)}). Is the server running (npm start)? Pass its address with --url.`,
        );
      }
      if (res.status === 429 && waits < MAX_RATE_LIMIT_WAITS) {
        await res.body?.cancel();
        const seconds = Number(res.headers.get("retry-after"));
        await new Promise((r) =>
          setTimeout(r, Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 30) * 1000 : 1000),
        );
        continue;
      }
      const text = await res.text();
      const parsed = parseJson(text);
      if (res.ok && parsed !== undefined) return parsed as T;
      throw toApiError(res.status, parsed, `${method} ${target.pathname}`);
    }
  }

  return {
    get: (path, query) => send("GET", path, query),
    post: (path, body) => send("POST", path, undefined, body),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function toApiError(status: number, body: unknown, what: string): ApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (error && typeof error.message === "string") {
    const code = typeof error.code === "string" ? error.code : "error";
    const hint = status === 401 ? " Check --api-key or CELLWRIGHT_API_KEY." : "";
    return new ApiError(status, code, `${error.message} (${code})${hint}`);
  }
  // A proxy's error page, or a server that is not Cellwright (or too old to know the endpoint).
  const reason =
    status === 404
      ? "not found; is this a Cellwright server of this version?"
      : "an answer that is not Cellwright's JSON";
  return new ApiError(status, "http_error", `${what} got HTTP ${status}, ${reason}`);
}

function causeOf(e: unknown): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  if (err.name === "TimeoutError") return `no answer within ${REQUEST_TIMEOUT_MS / 1000} seconds`;
  return err.cause?.code ?? err.cause?.message ?? err.message;
}

/** Pages through a list endpoint that answers {rows, nextCursor}. */
export async function* pages<T>(api: ApiClient, path: string, query: Query): AsyncGenerator<T[]> {
  let cursor: string | undefined;
  do {
    const page = await api.get<{ rows: T[]; nextCursor?: string | null }>(path, { ...query, cursor });
    yield page.rows;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}
