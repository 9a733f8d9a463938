import { isAppError } from "../errors.ts";
import { safeFetch, type GuardOptions } from "../net/index.ts";
import type { AttemptResult } from "./attempt-outcome.ts";
import type { ClaimedMessage } from "./claim-messages.ts";
import { parseRetryAfter } from "./retry.ts";
import { liveSecrets, signedHeaders } from "./signing.ts";

// One signed POST of a message. Goes through the outbound guard every time, so an endpoint whose
// name now resolves to a private address (DNS rebinding) is refused at delivery too.

export interface DeliverOptions {
  guard: GuardOptions;
  timeoutMs: number;
  connectTimeoutMs: number;
  signal: AbortSignal;
}

/** We keep this much of a failing answer, to show in the delivery log. */
const SNIPPET = 200;

export async function deliver(msg: ClaimedMessage, opts: DeliverOptions): Promise<AttemptResult> {
  const startedAt = new Date();
  const started = performance.now();
  // A fresh timestamp per attempt (the id stays), as Standard Webhooks asks: receivers reject old ones.
  const headers = signedHeaders(liveSecrets(msg), msg.id, msg.body);
  try {
    const res = await safeFetch(msg.url, {
      ...opts.guard,
      method: "POST",
      headers,
      body: msg.body,
      timeoutMs: opts.timeoutMs,
      connectTimeoutMs: Math.min(opts.connectTimeoutMs, opts.timeoutMs),
      maxBytes: 16 * 1024,
      truncate: true,
      // A redirect is a failure: following it would post signed data wherever the receiver says.
      followRedirects: false,
      signal: opts.signal,
    });
    const durationMs = performance.now() - started;
    const success = res.status >= 200 && res.status < 300;
    return {
      startedAt,
      statusCode: res.status,
      durationMs,
      success,
      error: success ? null : describeStatus(res.status, res.headers.location, res.body),
      retryAfterMs: success ? undefined : parseRetryAfter(res.headers["retry-after"]),
    };
  } catch (e) {
    // Stopping the relay is not a failed attempt: the caller hands the message back.
    if (opts.signal.aborted) throw e;
    const error = isAppError(e) ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);
    return { startedAt, statusCode: null, durationMs: performance.now() - started, success: false, error };
  }
}

function describeStatus(status: number, location: string | undefined, body: Buffer): string {
  if (status >= 300 && status < 400)
    return `HTTP ${status}: redirects are not followed${location ? ` (to ${location.slice(0, SNIPPET)})` : ""}.`;
  const text = body.subarray(0, SNIPPET).toString("utf8").replace(/\s+/g, " ").trim();
  return `HTTP ${status}${text ? `: ${text}` : ""}`;
}
