import { once } from "node:events";
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { call, type BenchServer } from "./rows-server.ts";

// bench:ui's base: BENCH_ROWS rows written as a CSV file and imported through the server's own
// import endpoint and job, the product's fastest way in (COPY on PostgreSQL). Add Rows at 10,000 a
// request took over half an hour for a million rows on the embedded database.

export const FIELDS = 6;
const IMPORT_WAIT_MS = 60 * 60_000;

/** Row `i` (0-based): "Row i+1", its number, and FIELDS short texts. */
const lineOf = (i: number) => {
  const fields = Array.from({ length: FIELDS }, (_, f) => `v${(i * 7 + f + 1) % 997}`);
  return `Row ${i + 1},${i + 1},${fields.join(",")}\n`;
};

async function writeCsv(file: string, rows: number) {
  const out = createWriteStream(file);
  out.write(`Name,Seq,${Array.from({ length: FIELDS }, (_, f) => `Field ${f + 1}`).join(",")}\n`);
  for (let i = 0; i < rows; i++) if (!out.write(lineOf(i))) await once(out, "drain");
  out.end();
  await once(out, "finish");
}

/** Creates the base and imports `rows` rows into it; resolves once the import is done. */
export async function seedBase(server: BenchServer, key: string, rows: number, keepIds: number) {
  const columns = [
    { name: "Name", type: "short-text", isPrimary: true },
    { name: "Seq", type: "number" },
    ...Array.from({ length: FIELDS }, (_, i) => ({ name: `Field ${i + 1}`, type: "short-text" })),
  ];
  const base = await call(server, key, "POST", "/api/v1/bases", { baseName: "Bench UI", columns });
  const dir = mkdtempSync(path.join(tmpdir(), "cw-bench-ui-csv-"));
  try {
    const file = path.join(dir, "rows.csv");
    await writeCsv(file, rows);
    const res = await fetch(`${server.url}/api/v1/bases/${base.baseId}/imports?createColumns=false&runAi=false`, {
      method: "POST",
      headers: {
        "x-api-key": key,
        "content-type": "text/csv",
        "content-length": String(statSync(file).size),
        "content-disposition": 'attachment; filename="rows.csv"',
      },
      body: createReadStream(file) as unknown as BodyInit,
      duplex: "half",
    } as RequestInit);
    const started = await res.json();
    if (res.status !== 202) throw new Error(`the import was refused: ${res.status} ${JSON.stringify(started)}`);
    const until = Date.now() + IMPORT_WAIT_MS;
    for (;;) {
      const imp = await call(server, key, "GET", `/api/v1/bases/${base.baseId}/imports/${started.id}`);
      if (imp.status === "failed") throw new Error(`the import failed: ${JSON.stringify(imp.errors ?? imp)}`);
      if (imp.status === "done") {
        if (imp.rowsCreated !== rows) throw new Error(`the import created ${imp.rowsCreated} rows of ${rows}`);
        break;
      }
      if (Date.now() > until) throw new Error(`the import did not finish: ${imp.rowsRead} lines read`);
      await sleep(1_000);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const first = await call(server, key, "GET", `/api/v1/bases/${base.baseId}/rows?limit=${keepIds}`);
  return { baseId: base.baseId as string, ids: first.rows.map((r: { id: string }) => r.id) as string[] };
}
