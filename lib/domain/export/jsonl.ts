import type { CopyOut } from "../../db/copy-out.ts";
import type { PreparedRowsQuery } from "../rows/index.ts";
import type { ExportColumn, ExportRow } from "./columns.ts";
import { linePages } from "./pages.ts";

// JSON Lines: one object per row, keyed by the headers, each line ending in \n. Values keep their
// JSON types (cells are the stored text, as the API returns them); no formula guard: not a sheet.

export async function* jsonlChunks(
  columns: readonly ExportColumn[],
  pages: AsyncIterable<ExportRow[]>,
): AsyncGenerator<string> {
  // Written as text rather than through an object: a column may be named "__proto__".
  const keys = columns.map((c) => `${JSON.stringify(c.header)}:`);
  for await (const page of pages) {
    let text = "";
    for (const row of page) {
      let line = "{";
      for (let i = 0; i < columns.length; i++)
        line += (i === 0 ? "" : ",") + keys[i] + JSON.stringify(columns[i].read(row));
      text += `${line}}\n`;
    }
    yield text;
  }
}

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * The same lines formatted by the database, for columns it can read alone: PostgreSQL's JSON
 * string escaping is JSON.stringify's for any text it can store, and the keys are written in.
 */
export function jsonlLineSql(columns: readonly ExportColumn[]): string {
  const fields = columns.map(
    (c, i) => `${sqlText(`${i === 0 ? "{" : ","}${JSON.stringify(c.header)}:`)} || to_json(${c.sql!})::text`,
  );
  return `${fields.join(" || ")} || '}'`;
}

export const jsonlLineChunks = (query: PreparedRowsQuery, columns: readonly ExportColumn[], maxPageRows?: number) =>
  linePages(query, jsonlLineSql(columns), "\n", maxPageRows);

/** The same lines by one COPY (PostgreSQL), or by pages when COPYs hold their share of the pool. */
export async function* jsonlCopyChunks(query: PreparedRowsQuery, columns: readonly ExportColumn[], copyOut: CopyOut) {
  const line = jsonlLineSql(columns);
  yield* copyOut(query.linesStatement(line, "\n")) ?? linePages(query, line, "\n");
}
