import type { CellRef, ClaimedCell } from "../domain/cells/index.ts";

// The queue port. The engine and the webhook relay see only this; the embedded implementation
// leases rows of the database itself, and scale-out puts a real queue engine behind it.

/** A cell this worker holds under a lease. */
export type CellJob = ClaimedCell;

export type CellWorker = ((job: CellJob, signal: AbortSignal) => Promise<void>) & {
  /** Jobs just claimed, to run once a slot frees: what they need may be read ahead, together. */
  prepare?(jobs: readonly CellJob[]): void;
};

export interface CellQueue {
  /** Starts claiming ready cells and running them with `worker`, at most `concurrency` at once. */
  start(worker: CellWorker): void;
  /** New work may be ready (called after a commit that queued cells). */
  wake(): void;
  /**
   * A running cell's model call has answered and its value is about to be stored: it holds its
   * slot until then, but calls the model no more.
   */
  answered?(cell: CellRef): void;
  /** Values of these rows' cells were committed: cells that depend on them may now be ready. */
  stored?(rowIds: readonly string[]): void;
  /** Their run was cancelled: aborts these cells where this worker runs them. */
  cancel(refs: readonly CellRef[]): void;
  /** Stops claiming, lets in-flight work finish for up to `graceMs`, then releases the rest. */
  stop(graceMs?: number): Promise<void>;
  readonly owner: string;
  stats(): { inFlight: number; maxInFlight: number; claimed: number };
}
