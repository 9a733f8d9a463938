import type { Prisma } from "../lib/db/database.ts";

// The floor of a pg-boss claim, for bench:scale and bench:claim-contention: a transaction of as
// many round trips as a claim (begin, three trivial statements, commit), with no work and no lock,
// timed in a loop beside the claims. A claim's time above it is its own work and its waits.

export const percentiles = (xs: readonly number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99) };
};

/** Times the floor transaction every `everyMs` until stopped; stop() resolves to its percentiles. */
export function claimFloor(prisma: Prisma, everyMs: number) {
  const times: number[] = [];
  let on = true;
  const done = (async () => {
    while (on) {
      const t0 = performance.now();
      await prisma.$transaction(async (tx) => {
        for (let i = 0; i < 3; i++) await tx.$queryRawUnsafe("SELECT 1");
      });
      times.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      on = false;
      await done;
      return percentiles(times);
    },
  };
}
