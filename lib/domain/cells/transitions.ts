// A cell's status machine, declared once. Every statement that changes a cell's status names one
// of these transitions, and its WHERE clause is built from the transition's `from` states, so the
// database itself refuses a move the table does not allow.

/**
 * `skipped`: the column's run condition (runIf) was false for the row, so the cell was never asked.
 * `not_found`: an HTTP or waterfall cell whose providers all answered that they have no data: an
 * outcome, not an error, charged only what its misses cost.
 */
export const CELL_STATUSES = ["pending", "running", "done", "error", "cancelled", "skipped", "not_found"] as const;
export type CellStatus = (typeof CELL_STATUSES)[number];

/** `null` stands for "no cell yet": the transition inserts it. */
type From = readonly (CellStatus | null)[];

export const CELL_TRANSITIONS = {
  /** Queued (again): any cell may be, a skipped one too (its row or its condition changed); a newer generation supersedes an attempt in flight. */
  queue: { from: [null, "pending", "running", "done", "error", "cancelled", "skipped", "not_found"], to: "pending" },
  /** The user wrote the value of an AI cell: it is theirs, and done. */
  supply: { from: [null, "pending", "running", "done", "error", "cancelled", "skipped", "not_found"], to: "done" },
  /** A reviewer accepted the value as it is: it is verified, and never regenerated unless forced. */
  accept: { from: ["done"], to: "done" },
  /** A reviewer took back an accept or a correction: the cell is as it was before it. */
  unverify: { from: ["done"], to: "done" },
  /** A reviewer corrected the value: it is theirs, verified, and the model's answer is kept aside. */
  correct: { from: [null, "pending", "running", "done", "error", "cancelled", "skipped", "not_found"], to: "done" },
  /** A worker takes a ready cell under a lease. */
  claim: { from: ["pending"], to: "running" },
  /** The answer is stored (with its charge). */
  complete: { from: ["running"], to: "done" },
  /**
   * Its run condition is false for the row: decided by the attempt before any model call, so it is
   * terminal, uncharged and never reviewed. Only a claimed cell is judged: the condition may read
   * an AI cell of the row, which is final only once this cell is ready to run.
   */
  skip: { from: ["running"], to: "skipped" },
  /** Every provider the cell asked had no data for the row: stored with what the misses cost. */
  notFound: { from: ["running"], to: "not_found" },
  /** The attempt ended in an error that is not retried. */
  fail: { from: ["running"], to: "error" },
  /** An input cell of the row failed, so a waiting dependent cannot run. */
  failInput: { from: ["pending"], to: "error" },
  /** A transient failure: back in the queue, due later. */
  retry: { from: ["running"], to: "pending" },
  /** The lease holder gave the cell back (shutdown), or its lease ran out (a dead worker). */
  release: { from: ["running"], to: "pending" },
  /** The lease ran out too many times: the cell keeps killing its worker. */
  abandon: { from: ["running"], to: "error" },
  /** Its run was cancelled: a waiting cell never runs, a running one is aborted and not charged. */
  cancel: { from: ["pending", "running"], to: "cancelled" },
  /** A value from the cell's history is put back (a revert): done with that value's sources, unverified. */
  restore: { from: [null, "done", "error", "cancelled", "skipped", "not_found"], to: "done" },
  /** Its answer came back after its run spent its budget: not stored, not charged, run again on resume. */
  overBudget: { from: ["running"], to: "pending" },
} as const satisfies Record<string, { from: From; to: CellStatus }>;

export type CellTransition = keyof typeof CELL_TRANSITIONS;

export class IllegalCellTransition extends Error {
  constructor(from: CellStatus | null, to: CellStatus) {
    super(`A cell cannot go from ${from ?? "(none)"} to ${to}.`);
    this.name = "IllegalCellTransition";
  }
}

export function canTransition(from: CellStatus | null, to: CellStatus): boolean {
  return Object.values(CELL_TRANSITIONS).some((t) => t.to === to && (t.from as From).includes(from));
}

export function assertTransition(from: CellStatus | null, to: CellStatus): void {
  if (!canTransition(from, to)) throw new IllegalCellTransition(from, to);
}

/**
 * The SQL condition a transition's UPDATE must carry: the cell is in one of its `from` states.
 * Built from constants of the table above, never from input.
 */
export function fromStatusSql(t: CellTransition, alias = "cells"): string {
  const states = (CELL_TRANSITIONS[t].from as From).filter((s): s is CellStatus => s !== null);
  return `${alias}.status IN (${states.map((s) => `'${s}'`).join(", ")})`;
}

/** The status a transition sets, as a SQL literal. */
export const toStatusSql = (t: CellTransition) => `'${CELL_TRANSITIONS[t].to}'`;
