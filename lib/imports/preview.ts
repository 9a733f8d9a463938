import { isGenerated } from "../domain/fill/kinds.ts";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { appError } from "../errors.ts";
import { randomBase62 } from "../ids.ts";
import { loadBase, loadColumns } from "../domain/base-context.ts";
import { autoRunOf, nameKey } from "../domain/column-model.ts";
import { analyzeFile, placeholderColumn, type ImportOptions } from "./analyze.ts";
import { detectFormat, type ReceivedFile } from "./create.ts";
import { IMPORT_LIMITS } from "./limits.ts";
import type { ImportRuntime } from "./progress.ts";
import { ParseFailure, type FileRecord, type ImportFormat } from "./records.ts";
import { removeImportFile } from "./sheet-rows.ts";

// A dry run of an import: the same first pass over the whole file, answered at once, with the
// first 20 lines, where each field would go (an existing column, a new one of the inferred type,
// or nowhere) and how many AI cells the import would queue at most. Nothing is written and the
// file is deleted afterwards.

export interface ImportPreview {
  format: ImportFormat;
  linesTotal: number;
  fields: { name: string; action: "match" | "create" | "ignore"; column: string | null; type: string | null }[];
  rows: string[][];
  aiColumns: string[];
  aiCells: number;
}

export async function previewImport(
  rt: ImportRuntime,
  workspaceId: string,
  baseId: string,
  options: ImportOptions & { format?: ImportFormat },
  receive: (target: string) => Promise<ReceivedFile>,
): Promise<ImportPreview> {
  const baseCtx = await loadBase(rt.db.prisma, workspaceId, baseId);
  const target = path.resolve(rt.config.dataDir, "files", `preview_${randomBase62(20)}`);
  await mkdir(path.dirname(target), { recursive: true });
  try {
    const file = await receive(target);
    const format = options.format ?? (await detectFormat(target, file));
    const columns = await loadColumns(rt.db.prisma, baseCtx.sheetId);
    const placeholder = placeholderColumn(
      columns,
      await rt.db.prisma.row.count({ where: { sheetId: baseCtx.sheetId } }),
    );
    const samples: FileRecord[] = [];
    const plan = await analyzeFile(target, format, options, columns, placeholder, samples).catch((e) => {
      if (e instanceof ParseFailure) throw appError("invalid_file", `Line ${e.line}: ${e.message}`, { line: e.line });
      throw e;
    });
    const byId = new Map(columns.map((c) => [c.id, c]));
    const fields = plan.fields.map((f) => {
      const column = f.columnId ? byId.get(f.columnId) : undefined;
      if (column) return { name: f.name, action: "match" as const, column: column.name, type: column.type };
      if (f.create) return { name: f.name, action: "create" as const, column: f.name, type: f.create.type };
      return { name: f.name, action: "ignore" as const, column: null, type: null };
    });
    const known = new Set(fields.flatMap((f) => (f.column ? [nameKey(f.column)] : [])));
    for (const m of options.mergeOn) {
      if (!known.has(nameKey(m)) && !columns.some((c) => c.nameKey === nameKey(m)))
        throw appError("unknown_column", `mergeOn: no column or header is named "${m}".`, { column: m });
    }
    const ai = placeholder ? [] : columns.filter((c) => isGenerated(c) && autoRunOf(c) !== "never");
    return {
      format,
      linesTotal: plan.lines,
      fields,
      rows: samples
        .slice(0, IMPORT_LIMITS.previewLines)
        .map((r) => ("object" in r ? plan.keys!.map((k) => r.object[k] ?? "") : r.fields)),
      aiColumns: ai.map((c) => c.name),
      aiCells: options.runAi ? plan.lines * ai.length : 0,
    };
  } finally {
    await removeImportFile(target);
  }
}
