// The public face of lib/domain/export/: the only module of it that other layers and aggregates import
// (architecture.test.ts names the few statement modules a lower aggregate composes instead).
export { openExport } from "./export.ts";
