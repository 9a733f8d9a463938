import { isGenerated } from "../domain/fill/kinds.ts";
import { mkdir, open, rm } from "node:fs/promises";
import path from "node:path";
import { inTransaction } from "../db/work.ts";
import { appError } from "../errors.ts";
import { loadBase, loadColumns } from "../domain/base-context.ts";
import { autoRunOf } from "../domain/column-model.ts";
import { assertMayQueue } from "../domain/runs/index.ts";
import type { ImportOptions } from "./analyze.ts";
import { announce, type ImportRuntime } from "./progress.ts";
import type { ImportFormat } from "./records.ts";
import { insertImport, newImportId, toImportView, type ImportView } from "./store.ts";

// Taking a file in: the base is checked first (another workspace's base is a 404 before any
// byte is read), the file is streamed to DATA_DIR/files, its format recognised, and the import
// queued. Parsing happens in the background (job.ts).

export interface ReceivedFile {
  name: string;
  contentType: string;
  size: number;
}

export async function createImport(
  rt: ImportRuntime,
  workspaceId: string,
  baseId: string,
  options: ImportOptions & { format?: ImportFormat },
  receive: (target: string) => Promise<ReceivedFile>,
  spend: { mayQueue?: boolean; keyId?: string | null } = {},
): Promise<ImportView> {
  const baseCtx = await loadBase(rt.db.prisma, workspaceId, baseId);
  // The lines are written later, by a worker, batch after batch: a caller who may not spend credits
  // is refused now, before any byte is read, when the new rows would queue the base's AI columns.
  if (options.runAi && spend.mayQueue === false) {
    const columns = await loadColumns(rt.db.prisma, baseCtx.sheetId);
    const running = columns.filter((c) => isGenerated(c) && autoRunOf(c) !== "never").length;
    assertMayQueue(
      spend,
      running,
      "This import would queue the base's AI columns, which spends credits: it needs the runs:write scope, or runAi=false.",
    );
  }
  const id = newImportId();
  const target = path.resolve(rt.config.dataDir, "files", id);
  await mkdir(path.dirname(target), { recursive: true });
  const file = await receive(target);
  try {
    const format = options.format ?? (await detectFormat(target, file));
    const { format: _, ...stored } = options;
    return await inTransaction(rt, async (w) => {
      const row = await insertImport(w.tx, {
        id,
        workspaceId,
        baseId: baseCtx.baseId,
        format,
        fileName: file.name,
        size: file.size,
        storagePath: id,
        options: stored,
        keyId: spend.keyId ?? null,
      });
      announce(w, row);
      return toImportView(row);
    });
  } catch (e) {
    await rm(target, { force: true });
    throw e;
  }
}

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const BY_TYPE: Record<string, ImportFormat> = {
  "text/csv": "csv",
  "text/tab-separated-values": "csv",
  "application/csv": "csv",
  [XLSX_TYPE]: "xlsx",
  "application/x-ndjson": "jsonl",
  "application/ndjson": "jsonl",
  "application/jsonl": "jsonl",
  "application/x-jsonlines": "jsonl",
};
const BY_EXTENSION: Record<string, ImportFormat> = {
  csv: "csv",
  tsv: "csv",
  tab: "csv",
  txt: "csv",
  xlsx: "xlsx",
  ndjson: "jsonl",
  jsonl: "jsonl",
};

/** The declared type, then the file name's extension, then the first bytes. */
export async function detectFormat(file: string, received: ReceivedFile): Promise<ImportFormat> {
  const head = await firstBytes(file, 8);
  const zip = head[0] === 0x50 && head[1] === 0x4b;
  const declared = BY_TYPE[received.contentType] ?? BY_EXTENSION[path.extname(received.name).slice(1).toLowerCase()];
  if (declared === "xlsx" && !zip)
    throw appError(
      "invalid_file",
      "The file is declared as XLSX but is not a workbook (an XLSX file is a zip archive).",
    );
  if (declared) return declared;
  if (zip) return "xlsx";
  if (
    received.contentType === "application/pdf" ||
    head.subarray(0, 4).toString("latin1") === "%PDF" ||
    head.includes(0)
  ) {
    if (!(head[0] === 0xff && head[1] === 0xfe) && !(head[0] === 0xfe && head[1] === 0xff)) {
      throw appError("unsupported_file", "Import takes CSV (or TSV), XLSX and JSON Lines files.");
    }
  }
  const text = head
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart();
  return text.startsWith("{") ? "jsonl" : "csv";
}

async function firstBytes(file: string, n: number): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await handle.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
