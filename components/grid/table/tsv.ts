// Tab-separated values as spreadsheets put them on the clipboard: fields containing a tab,
// newline or quote are wrapped in quotes, with quotes doubled.

export function parseTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  const s = text.replace(/\r\n?/g, "\n");
  while (i < s.length) {
    const ch = s[i];
    if (quoted) {
      if (ch === '"' && s[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') {
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === "") {
      quoted = true;
    } else if (ch === "\t") {
      row.push(field);
      field = "";
    } else if (ch === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else {
      field += ch;
    }
    i++;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  // A trailing blank line is the clipboard's final newline, not a row.
  return rows.filter((r) => !(r.length === 1 && r[0] === ""));
}

const needsQuotes = /[\t\n\r"]/;

export function toTsv(rows: readonly (readonly string[])[]): string {
  return rows.map((r) => r.map((f) => (needsQuotes.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join("\t")).join("\n");
}
