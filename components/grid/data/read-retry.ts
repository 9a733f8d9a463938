import { ApiError } from "../../data/api";

/** A read the network or the server failed is tried again after this long, doubling, this many times. */
const RETRY = { firstMs: 1_000, tries: 3 };

/**
 * When the grid tries a failed read again: a dropped connection or a server error after 1, 2,
 * then 4 s; a refusal (4xx), or a failure that lasts through the tries, not at all.
 */
export class ReadRetry {
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** Schedules `resume` and answers true, or answers false when the failure is for good. */
  later(e: unknown, resume: () => void): boolean {
    const transient = !(e instanceof ApiError) || e.status >= 500;
    if (!transient || this.failures >= RETRY.tries) return false;
    const wait = RETRY.firstMs * 2 ** this.failures++;
    this.timer ??= setTimeout(() => {
      this.timer = null;
      resume();
    }, wait);
    return true;
  }

  /** A read came back, or the rows are read from scratch: the next failure waits the least again. */
  reset(): void {
    this.failures = 0;
  }

  /** No try is pending any more (the failure count stays). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
