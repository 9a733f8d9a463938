// The face of cells' histories: reading a row's changes and reverting them. Changes are recorded by
// the aggregates that make them, through the statement module append.ts.
export {
  DEFAULT_HISTORY_PAGE,
  HISTORY_KINDS,
  MAX_HISTORY_PAGE,
  type HistoryEntryView,
  type HistoryKind,
} from "./entry.ts";
export { rowHistory } from "./read.ts";
export { revertCell, revertRun } from "./revert.ts";
export { pruneHistory } from "./retention.ts";
