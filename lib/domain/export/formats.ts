// The export formats, apart from their writers: the request schemas name them, and must not load
// the writers (exceljs) into every process that parses a request.

export const EXPORT_FORMATS = ["csv", "xlsx", "jsonl"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  jsonl: "application/x-ndjson; charset=utf-8",
};
