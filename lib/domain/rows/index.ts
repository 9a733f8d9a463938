// The public face of lib/domain/rows/: the only module of it that other layers and aggregates import
// (architecture.test.ts names the few statement modules a lower aggregate composes instead).
export { applyWrites } from "./apply.ts";
export { ColumnIndex, MAX_CELL_CHARS, normalizeCells } from "./input.ts";
export { cellsOfRow, getRow, openRowsReader, statesOf } from "./read.ts";
export { mergeKeyColumns, storedValues, upsertRows, type UpsertResult } from "./upsert.ts";
export { rowJson, type RowValues } from "./view.ts";
export { addRows, deleteRows, updateRows, writeReviewedValues, type FormulaChange } from "./write.ts";
export { type PreparedRowsQuery, prepareRowsQuery, queryFromGet, queryRows, readRows } from "./query.ts";
export { settleRows } from "./settled.ts";
