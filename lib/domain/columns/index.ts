// The public face of lib/domain/columns/: the only module of it that other layers import.
export { columnFields, type ColumnInput, columnInputSchema } from "./input.ts";
export { createColumn, deleteColumn, insertColumn, updateColumn, updateColumnRecord } from "./write.ts";
