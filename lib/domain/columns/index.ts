// The public face of lib/domain/columns/: the only module of it that other layers and aggregates import
// (architecture.test.ts names the few statement modules a lower aggregate composes instead).
export { columnFields, type ColumnInput, columnInputSchema } from "./input.ts";
export { createColumn, deleteColumn, insertColumn, updateColumn, updateColumnRecord } from "./write.ts";
export { runIfHolds } from "./run-if.ts";
