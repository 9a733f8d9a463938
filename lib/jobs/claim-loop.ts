/** What a claim tells the loop: claim again at once, stop unless asked meanwhile, or stop regardless. */
export type ClaimVerdict = "more" | "done" | "hold";

export interface ClaimLoopOptions {
  /** Whether claiming makes sense now (not stopped, the buffer below its low-water mark). */
  wanted(): boolean;
  /** How many to claim now; nothing happens at 0 or less. */
  room(): number;
  claim(want: number): Promise<ClaimVerdict>;
  /** Shown in the log when a claim fails (the next wake-up or poll tries again). */
  what: string;
}

/**
 * The claim pump the cell queues and the webhook relay share: at most one claim at a time, a
 * wake-up during a claim is remembered rather than lost, and a full claim is followed by another
 * at once.
 */
export function createClaimLoop(opts: ClaimLoopOptions) {
  let claiming: Promise<void> | undefined;
  let again = false;

  const pump = () => {
    if (!opts.wanted()) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = (async () => {
      try {
        do {
          again = false;
          const want = opts.room();
          if (want <= 0) break;
          const verdict = await opts.claim(want);
          if (verdict === "hold") again = false;
          else if (verdict === "more") again = true;
        } while (again && opts.wanted());
      } catch (e) {
        if (opts.wanted()) console.error(`[cellwright] claiming ${opts.what} failed:`, e);
      } finally {
        claiming = undefined;
      }
    })();
  };

  return {
    pump,
    /** Resolves once the claim under way, if any, has finished. */
    idle: () => claiming ?? Promise.resolve(),
  };
}
