import { appError } from "../errors.ts";

// Failed password checks, counted per email in this process: past MAX_FAILURES within WINDOW_MS,
// the email is refused until the window ends (429 rate_limited with Retry-After), so a password
// cannot be guessed at the speed of the hash. A right password clears the count. Each server
// process counts on its own: with N processes an attacker gets N times the tries, still few.

export const MAX_FAILURES = 10;
const WINDOW_MS = 15 * 60_000;
const MAX_ENTRIES = 10_000;

interface Failures {
  count: number;
  since: number;
}

const SLOT = Symbol.for("cellwright.passwordFailures");
const failures: Map<string, Failures> = ((globalThis as Record<symbol, unknown>)[SLOT] ??= new Map()) as Map<
  string,
  Failures
>;

function current(email: string, now: number): Failures | undefined {
  const f = failures.get(email);
  if (f && now - f.since >= WINDOW_MS) {
    failures.delete(email);
    return undefined;
  }
  return f;
}

export function assertNotThrottled(email: string, now = Date.now()): void {
  const f = current(email, now);
  if (!f || f.count < MAX_FAILURES) return;
  const retryAfterSeconds = Math.max(1, Math.ceil((f.since + WINDOW_MS - now) / 1000));
  throw appError("rate_limited", "Too many wrong passwords for this email; try again later.", { retryAfterSeconds });
}

export function recordFailure(email: string, now = Date.now()): void {
  const f = current(email, now);
  if (f) f.count++;
  else {
    if (failures.size >= MAX_ENTRIES) failures.clear();
    failures.set(email, { count: 1, since: now });
  }
}

export const clearFailures = (email: string) => failures.delete(email);
