// When to try a failed delivery again. Pure, so the schedule, the jitter and Retry-After can be
// tested without a clock or a network.

/** A Retry-After longer than this is treated as this: a receiver cannot park a message for weeks. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/** Spread of the jitter around each scheduled delay (±10%), so retries of a burst do not stampede. */
const JITTER = 0.1;

export interface RetryInput {
  /** Delay before each attempt; entry 0 is the first attempt (immediately), so its length is the attempt budget. */
  schedule: readonly number[];
  /** Attempts made so far, including the one that just failed. */
  attemptsMade: number;
  /** What the receiver asked for with Retry-After, if anything. */
  retryAfterMs?: number;
  /** A number in [0, 1); injectable for tests. */
  random?: () => number;
}

/** Milliseconds until the next attempt, or null when the schedule is used up. */
export function nextRetryDelayMs(input: RetryInput): number | null {
  if (input.attemptsMade >= input.schedule.length) return null;
  const base = input.schedule[input.attemptsMade];
  const r = (input.random ?? Math.random)();
  const jittered = Math.round(base * (1 + JITTER * (2 * r - 1)));
  // Retry-After can only push a retry later: a receiver asking for "now" gets the schedule.
  const asked = input.retryAfterMs === undefined ? 0 : Math.min(input.retryAfterMs, MAX_RETRY_AFTER_MS);
  return Math.max(jittered, asked);
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
