// The one owner of the `cells` table (and of `cell_runs`, the record of each attempt). Nothing
// else inserts, transitions or stores cells: the request paths, the engine and both queue engines
// call these functions, and every status change is a transition of the table in transitions.ts.
export * from "./types.ts";
export * from "./transitions.ts";
export {
  insertCellsOfNewRows,
  queueCells,
  supplyCells,
  markStale,
  finishedCellsOfColumn,
  cellStates,
} from "./queue.ts";
export { acceptCells, correctCells, readReviewState, unverifyCell, type ReviewedCellState } from "./review.ts";
export {
  storeValues,
  failCell,
  retryCell,
  InsufficientCredits,
  type Completion,
  type CompleteResult,
  type Materiality,
} from "./outcomes.ts";
export { cancelRunCells, pendingCellsOfRun } from "./cancel.ts";
export { skipCell, skippedMetadata } from "./skip.ts";
export { runRoomSql } from "./budget.ts";
export {
  leaseFor,
  claimReadyCells,
  claimListedCells,
  renewLeases,
  releaseCells,
  returnLeases,
  inputCellsSql,
  inputIdsOf,
  dependencyIdsSql,
  inputsSettledSql,
  runnableSql,
  runOpenSql,
  type ListedCellState,
} from "./leases.ts";
export { pruneCellAttempts } from "./retention.ts";
export { storeVerifiedCells } from "./verified.ts";
export { recordWrittenValues, type WrittenValue } from "./answer-history.ts";
export { restoreCells, type RestoredCell } from "./restore.ts";
