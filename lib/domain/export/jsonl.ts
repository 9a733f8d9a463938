import type { ExportColumn, ExportRow } from "./columns.ts";

// JSON Lines: one object per row, keyed by the headers, each line ending in \n. Values keep their
// JSON types (cells are the stored text, as the API returns them); no formula guard: not a sheet.

export async function* jsonlChunks(columns: readonly ExportColumn[], pages: AsyncIterable<ExportRow[]>): AsyncGenerator<string> {
  // Written as text rather than through an object: a column may be named "__proto__".
  const keys = columns.map((c) => `${JSON.stringify(c.header)}:`);
  for await (const page of pages) {
    let text = "";
    for (const row of page) {
      let line = "{";
      for (let i = 0; i < columns.length; i++) line += (i === 0 ? "" : ",") + keys[i] + JSON.stringify(columns[i].read(row));
      text += `${line}}\n`;
    }
    yield text;
  }
}
