// The documented limits of an import (docs/import.md); the file size is IMPORT_MAX_BYTES.
export const IMPORT_LIMITS = {
  /** Data lines (records) in one file. */
  lines: 1_000_000,
  /** Columns (fields) in one file; a base holds at most 500 columns as well. */
  columns: 500,
  /** Characters of one value, as for a cell. */
  valueChars: 100_000,
  /** Lines written per transaction: the unit of progress and of resumption. */
  batchLines: 2_000,
  /**
   * Lines per transaction where new rows go in by COPY (PostgreSQL): a batch's fixed cost (the
   * lease, the base, the progress) is then a tenth of its time rather than half.
   */
  bulkBatchLines: 10_000,
  /** Characters per transaction as well, so that memory stays flat however long the values are. */
  batchChars: 4_000_000,
  /** The errors an import keeps (its counters count them all). */
  keptErrors: 100,
  /**
   * Bytes an XLSX file's parts may inflate to, together. Sheets are read as streams, so this is
   * larger than file analysis's 256 MB: a sheet of a million lines of 8 columns is about 330 MB.
   * The shared strings and compression ratio limits are file analysis's (WORKBOOK_LIMITS).
   */
  xlsxInflatedBytes: 1024 * 1024 * 1024,
  /** How long an extraction thread may take to read an XLSX file's worksheet. */
  xlsxReadMs: 10 * 60_000,
  /** Lines a preview shows. */
  previewLines: 20,
  /** An import's lease: another worker takes it up this long after its worker stopped renewing. */
  leaseMs: 30_000,
  /** Attempts after which an import whose worker keeps dying fails. */
  maxAttempts: 3,
} as const;
