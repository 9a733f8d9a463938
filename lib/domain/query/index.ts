// The public face of lib/domain/query/: the only module of it that other layers and aggregates import
// (architecture.test.ts names the few statement modules a lower aggregate composes instead).
export { type FilterNode, parseFilter, resolveColumn } from "./filter.ts";
export { cleanSearch, compileFilter, LiteralParams, needsReviewSql, Params, searchSql, sqlId } from "./sql.ts";
export {
  compileSort,
  type Cursor,
  decodeQueryCursor,
  encodeQueryCursor,
  parseSort,
  sortFromQueryText,
} from "./sort.ts";
export { filterSchema, type RowsQueryInput, searchSchema, sortSchema } from "./request.ts";
