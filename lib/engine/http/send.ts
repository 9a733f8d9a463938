import { appError, isAppError } from "../../errors.ts";
import { safeFetch, type SafeFetchOptions } from "../../net/index.ts";
import { parseRetryAfter } from "../llm/classify-error.ts";
import type { HostGate } from "./host-gate.ts";
import type { ResolvedRequest } from "./template.ts";

// One request of an HTTP column, sent through the URL guard under the host's limits, and sent
// again after a 429, a 5xx or a network failure. A short Retry-After is waited out here; a long
// one ends the attempt as retryable, so the cell goes back to the queue rather than hold a slot.

export interface SendOptions {
  retries: number;
  timeoutMs: number;
  perMinute: number;
  concurrency: number;
  gate: HostGate;
  fetch: Pick<SafeFetchOptions, "maxBytes" | "connectTimeoutMs" | "allowedPrivateHosts" | "allowedTargets" | "lookup">;
  signal?: AbortSignal;
}

export interface Answer {
  status: number;
  /** The body as text (UTF-8), "" when empty. */
  text: string;
  latencyMs: number;
  /** Requests sent, retries included. */
  calls: number;
}

/** Waits up to this long in the attempt; a longer Retry-After sends the cell back to the queue. */
const MAX_INLINE_WAIT_MS = 5_000;
const BACKOFF_BASE_MS = 250;

export async function sendRequest(req: ResolvedRequest, opts: SendOptions): Promise<Answer> {
  const host = new URL(req.url).host;
  const started = performance.now();
  let calls = 0;
  for (let attempt = 0; ; attempt++) {
    let status: number;
    let text = "";
    let retryAfterMs: number | undefined;
    let problem: string;
    const leave = await opts.gate.enter(
      host,
      {
        perMinute: opts.perMinute,
        concurrency: opts.concurrency,
        leaseMs: opts.timeoutMs + 5_000,
      },
      opts.signal,
    );
    try {
      calls++;
      const res = await safeFetch(req.url, {
        ...opts.fetch,
        method: req.method,
        headers: req.headers,
        ...(req.body !== undefined ? { body: req.body } : {}),
        timeoutMs: opts.timeoutMs,
        signal: opts.signal,
      });
      status = res.status;
      text = res.body.toString("utf8");
      if (status !== 429 && status < 500) return { status, text, latencyMs: elapsed(started), calls };
      retryAfterMs = parseRetryAfter(flatHeaders(res.headers));
      problem = `HTTP ${status}`;
    } catch (e) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      // Only what a later try could change is tried again: a blocked address never will be.
      if (!isAppError(e) || (e.code !== "fetch_failed" && e.code !== "timeout")) throw e;
      status = 0;
      problem = e.code === "timeout" ? `no answer within ${opts.timeoutMs} ms` : "the connection failed";
    } finally {
      await leave();
    }
    const wait = retryAfterMs ?? BACKOFF_BASE_MS * 2 ** attempt * (0.5 + Math.random() / 2);
    if (attempt >= opts.retries || wait > MAX_INLINE_WAIT_MS) {
      throw appError(
        "provider_failed",
        `${host} failed: ${problem}, after ${calls} ${calls === 1 ? "call" : "calls"}.`,
        {
          retryable: true,
          ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
          status,
        },
      );
    }
    await sleep(wait, opts.signal);
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

const elapsed = (since: number) => Math.round(performance.now() - since);

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = Array.isArray(v) ? v[0] : v;
  return out;
}
