// The public face of lib/domain/rows/: the only module of it that other layers import.
export { applyWrites } from "./apply.ts";
export { ColumnIndex, MAX_CELL_CHARS } from "./input.ts";
export { getRow } from "./read.ts";
export { mergeKeyColumns, upsertLines, type UpsertResult } from "./upsert.ts";
export { rowJson } from "./view.ts";
export { addRows, deleteRows, updateRows } from "./write.ts";
