/** Exponential backoff with full jitter, never shorter than what the provider asked for. */
export function backoffMs(attempt: number, baseMs: number, retryAfterMs?: number, random = Math.random): number {
  const cap = 60_000;
  const exp = Math.min(cap, baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = exp / 2 + random() * (exp / 2);
  return Math.max(Math.round(jittered), retryAfterMs ?? 0);
}
