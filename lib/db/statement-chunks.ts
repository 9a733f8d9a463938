// Splits a set-based write into statements whose parameters stay under a byte budget.
//
// Why: Prisma keeps the arguments of its last 100 internal debug calls in memory, debug output
// on or off, and every raw statement logs its parameters there (once in the client runtime, once
// in the driver adapter). A 10 MB batch of long cells stays reachable until a hundred further calls
// push it out, so memory grows with the size of statements rather than with the work in hand.
// Bounding each statement's parameters bounds what that history can hold.

// It also bounds the server thread's share of each statement: Prisma copies the parameters and, on
// the embedded database, they are cloned to its thread, in one synchronous task each. At 512 KB
// (2,000 rows of the benchmarks) that task held the thread 30–150 ms; at 128 KB, about a quarter.

/** Parameter bytes per statement: large enough that a statement's round trip stays a small share. */
export const STATEMENT_PARAM_BYTES = 128 * 1024;

/** Consecutive slices of `items`, each of about `maxBytes` by `sizeOf` (never empty; order kept). */
export function* chunksByBytes<T>(
  items: readonly T[],
  sizeOf: (item: T) => number,
  maxBytes = STATEMENT_PARAM_BYTES,
): Generator<T[]> {
  let chunk: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (chunk.length > 0 && bytes + size > maxBytes) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(item);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}
