import { nameKey, type ColumnRecord } from "../domain/column-model.ts";
import { ColumnIndex } from "../domain/rows/index.ts";
import { ConventionEvidence, TypeGuess, type Conventions } from "./cast.ts";
import { IMPORT_LIMITS } from "./limits.ts";
import { ParseFailure, readRecords, type FileRecord, type ImportFormat } from "./records.ts";
import type { SpoolWriter } from "./spool.ts";

// The first pass: reads the whole file once, streaming, before anything is written. A file that
// does not parse, or breaks a limit, fails here; otherwise it yields the plan the second pass
// follows: which column each field goes to, the columns to create and their types, and the
// file's number and date conventions.

export interface ImportOptions {
  mergeOn: string[];
  createColumns: boolean;
  typecast: boolean;
  runAi: boolean;
  header: boolean;
  sheet?: string;
}

export interface FieldTarget {
  /** The field's name: its header, its JSON key, or "Column n". */
  name: string;
  /** An existing column's id, or null until created (new) or for good (ignored). */
  columnId: string | null;
  /** A column to create, with its inferred type. */
  create?: { type: string; isPrimary: boolean; replaces?: string };
}

export interface ImportPlan {
  fields: FieldTarget[];
  /** For JSON Lines: the keys, in field order. */
  keys: string[] | null;
  conventions: Conventions;
  /** Data lines (records) in the file. */
  lines: number;
  ignored: string[];
}

/**
 * A new base starts with one primary short-text column "Name" and no rows. An import into such a
 * base treats it as a base without columns: the file's first field takes that column's place.
 */
export function placeholderColumn(columns: readonly ColumnRecord[], rowCount: number): ColumnRecord | null {
  const [only] = columns;
  const untouched =
    columns.length === 1 && only.name === "Name" && only.type === "short-text" && only.isPrimary && !only.isAiEnabled;
  return untouched && rowCount === 0 ? only : null;
}

export async function analyzeFile(
  path: string,
  format: ImportFormat,
  options: ImportOptions,
  columns: readonly ColumnRecord[],
  placeholder: ColumnRecord | null,
  samples?: FileRecord[],
  spool?: SpoolWriter,
): Promise<ImportPlan> {
  const evidence = new ConventionEvidence();
  const guesses: TypeGuess[] = [];
  const keys = new Map<string, number>();
  let header: string[] | null = null;
  let lines = 0;
  let width = 0;
  // A field whose header names an existing column goes to that column whatever its values: its
  // type is not guessed (mapFields reads guesses only for the columns it creates).
  const matched = new Set<number>();

  for await (const record of readRecords(path, format, { sheet: options.sheet })) {
    if (spool && "fields" in record) await spool.add(record.line, record.fields);
    let fields: string[];
    if ("object" in record) {
      for (const k of Object.keys(record.object)) if (!keys.has(k)) keys.set(k, keys.size);
      fields = Object.values(record.object);
    } else {
      fields = record.fields;
      if (header === null && options.header) {
        header = fields.map((f) => f.normalize("NFC").trim());
        width = header.length;
        const existing = new ColumnIndex(placeholder ? [] : columns);
        header.forEach((name, i) => name !== "" && existing.find(name) && matched.add(i));
        continue;
      }
    }
    lines++;
    if (lines > IMPORT_LIMITS.lines)
      throw new ParseFailure(
        record.line,
        `An import has at most ${IMPORT_LIMITS.lines.toLocaleString("en-US")} data lines.`,
      );
    const fieldsOf = "object" in record ? [...keys.keys()].map((k) => record.object[k] ?? "") : fields;
    width = Math.max(width, fieldsOf.length, keys.size);
    if (width > IMPORT_LIMITS.columns)
      throw new ParseFailure(record.line, `An import has at most ${IMPORT_LIMITS.columns} columns.`);
    fieldsOf.forEach((value, i) => {
      if (value.length > IMPORT_LIMITS.valueChars)
        throw new ParseFailure(
          record.line,
          `A value is at most ${IMPORT_LIMITS.valueChars.toLocaleString("en-US")} characters.`,
        );
      evidence.observe(value);
      if (!matched.has(i)) (guesses[i] ??= new TypeGuess()).observe(value, { decimal: "dot", dateOrder: null });
    });
    if (samples && samples.length < IMPORT_LIMITS.previewLines) samples.push(record);
  }
  const conventions = evidence.settle();
  const names =
    format === "jsonl" ? [...keys.keys()] : Array.from({ length: width }, (_, i) => header?.[i] || `Column ${i + 1}`);
  return {
    ...mapFields(names, columns, placeholder, guesses, conventions, options),
    keys: format === "jsonl" ? names : null,
    conventions,
    lines,
  };
}

function mapFields(
  names: string[],
  all: readonly ColumnRecord[],
  placeholder: ColumnRecord | null,
  guesses: TypeGuess[],
  conv: Conventions,
  options: ImportOptions,
) {
  const columns = placeholder ? [] : all;
  const index = new ColumnIndex(columns);
  const taken = new Set<string>();
  const ignored: string[] = [];
  let primaryFree = columns.length === 0;
  const fields = names.map((name, i): FieldTarget => {
    const key = nameKey(name);
    if (taken.has(key) || name === "") {
      ignored.push(name);
      return { name, columnId: null };
    }
    taken.add(key);
    const existing = index.find(name);
    if (existing) return { name, columnId: existing.id };
    if (!options.createColumns) {
      ignored.push(name);
      return { name, columnId: null };
    }
    const type = guesses[i]?.settle((t) => t !== "number" || conv.decimal !== null) ?? "short-text";
    const isPrimary = primaryFree;
    primaryFree = false;
    const replaces = isPrimary && placeholder ? placeholder.id : undefined;
    return { name: name.slice(0, 100), columnId: null, create: { type, isPrimary, ...(replaces ? { replaces } : {}) } };
  });
  return { fields, ignored };
}
