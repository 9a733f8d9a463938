import type { CopyIn } from "../../db/copy-in.ts";
import type { Tx } from "../../db/database.ts";
import type { RowValues } from "./view.ts";

// New rows by COPY (PostgreSQL; an import batch's path): the rows stream straight into `rows`
// in the given order, so `seq` (a column default, drawn row by row) is insertion order as with
// the INSERT, and the generated search text and the indexes are filled by the same machinery.
// No staging table: nothing is merged, so an INSERT ... SELECT would only write the data twice.
// 10,000 rows of 8 columns take two thirds of the INSERT's time (BENCHMARKS.md, bench:million);
// the rest is the database's own work per row (the search text and its trigram index).

/** COPY's text format escapes backslash, tab, newline and CR; JSON text holds no raw control characters, so only its backslashes double. */
const copyText = (json: string) => (json.includes("\\") ? json.replaceAll("\\", "\\\\") : json);

const CHUNK_CHARS = 1 << 16;

function* copyLines(sheetId: string, rows: readonly { id: string; values: RowValues }[]) {
  let chunk = "";
  for (const r of rows) {
    chunk += `${r.id}\t${sheetId}\t${copyText(JSON.stringify(r.values))}\n`;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk !== "") yield chunk;
}

export async function copyNewRows(
  tx: Tx,
  copyIn: CopyIn,
  sheetId: string,
  rows: readonly { id: string; values: RowValues }[],
): Promise<void> {
  if (rows.length === 0) return;
  await copyIn(tx, `COPY rows (id, sheet_id, "values") FROM STDIN`, copyLines(sheetId, rows));
}
