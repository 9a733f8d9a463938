// The public face of lib/domain/export/: the only module of it that other layers import.
export { openExport } from "./export.ts";
