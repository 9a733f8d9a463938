import { appError } from "../errors.ts";
import type { FetchLike, ToolLimits } from "./types.ts";

// JSON calls to operator-configured APIs (search providers, Hunter). These hosts are chosen by
// the operator, not by cell content, so they skip the URL guard (a self-hosted SearXNG often
// lives on a private network). Retries 429, 5xx and network errors with capped backoff.

export interface ProviderCall {
  provider: string;
  url: string;
  init?: RequestInit;
  limits: Pick<ToolLimits, "timeoutMs" | "retry">;
  signal?: AbortSignal;
  fetchImpl?: FetchLike;
}

export interface ProviderResponse {
  status: number;
  json: unknown;
}

export async function callProvider(call: ProviderCall): Promise<ProviderResponse> {
  const { retry } = call.limits;
  const doFetch = call.fetchImpl ?? fetch;
  let lastProblem = "no attempt made";

  for (let attempt = 1; attempt <= Math.max(1, retry.attempts); attempt++) {
    const attemptSignal = AbortSignal.any([
      AbortSignal.timeout(call.limits.timeoutMs),
      ...(call.signal ? [call.signal] : []),
    ]);
    let res: Response;
    try {
      res = await doFetch(call.url, { ...call.init, signal: attemptSignal });
    } catch (e) {
      if (call.signal?.aborted) throw call.signal.reason;
      const code = (e as { cause?: { code?: unknown } }).cause?.code;
      lastProblem = attemptSignal.aborted
        ? "timed out"
        : `network error${typeof code === "string" ? ` (${code})` : ""}`;
      if (attempt < retry.attempts) await sleep(backoff(attempt, retry), call.signal);
      continue;
    }

    if (res.ok) {
      const text = await res.text();
      try {
        return { status: res.status, json: text ? JSON.parse(text) : null };
      } catch {
        throw appError("tool_failed", `${call.provider} answered with invalid JSON.`, { provider: call.provider });
      }
    }
    await res.body?.cancel().catch(() => undefined);
    // A not-found answer is data (e.g. Hunter found nobody), not a failure of the call.
    if (res.status === 404) return { status: 404, json: null };
    if (res.status !== 429 && res.status < 500) {
      throw appError("tool_failed", `${call.provider} refused the request (HTTP ${res.status}).`, {
        provider: call.provider,
        status: res.status,
      });
    }
    lastProblem = `HTTP ${res.status}`;
    if (attempt < retry.attempts) {
      const hinted = retryAfterMs(res.headers.get("retry-after"));
      await sleep(Math.min(hinted ?? backoff(attempt, retry), retry.maxWaitMs), call.signal);
    }
  }
  throw appError("tool_failed", `${call.provider} failed after ${retry.attempts} attempts (${lastProblem}).`, {
    provider: call.provider,
  });
}

function backoff(attempt: number, retry: ToolLimits["retry"]): number {
  const exp = retry.baseMs * 2 ** (attempt - 1);
  // Full jitter on the upper half spreads out concurrent cells that failed together.
  return Math.min(retry.maxWaitMs, exp / 2 + Math.random() * (exp / 2));
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or invalid. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
