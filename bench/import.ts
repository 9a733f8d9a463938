// npm run bench:import — 100,000 rows × 8 columns on PGlite (BENCH_DATABASE_URL, an admin URL, for
// PostgreSQL: each side gets a database of its own, dropped after).
// Imports a CSV (BENCH_FORMAT=xlsx: a workbook) through the import job (both passes, batches, progress) and prints rows/s and RSS
// growth, beside the floor measured in the same run: Add Rows at its largest batch (10,000 rows)
// into an identical base. Goals: import at 0.8× the floor's rate or better, RSS growth < 100 MB.
import { mkdtempSync, rmSync, createWriteStream } from "node:fs";
import { copyFile, stat } from "node:fs/promises";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../lib/config.ts";
import { createRuntime, stopRuntime } from "../lib/runtime.ts";
import { createWorkspace } from "../lib/workspaces.ts";
import { inTransaction } from "../lib/db/work.ts";
import { createBase } from "../lib/domain/bases.ts";
import { addRows } from "../lib/domain/rows/write.ts";
import { createImport } from "../lib/imports/create.ts";
import { startImportWorker } from "../lib/imports/worker.ts";
import { mb, peakRss, secs, table } from "./support.ts";
import { freshPostgres } from "./rows-floor.ts";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const COLUMNS = [
  { name: "Email", type: "email", isPrimary: true },
  { name: "Company" },
  { name: "Country" },
  { name: "Employees", type: "number" },
  { name: "Founded", type: "date" },
  { name: "Website", type: "url" },
  { name: "Active", type: "checkbox" },
  { name: "Notes", type: "long-text" },
];
const valuesOf = (i: number) => [
  `person${i}@company${i % 997}.test`,
  `Company ${i % 997}`,
  ["FR", "DE", "US", "JP"][i % 4],
  String((i * 37) % 5_000),
  `${1980 + (i % 44)}-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`,
  `https://company${i % 997}.test/`,
  i % 3 === 0 ? "true" : "false",
  `Met at event ${i % 50}, follow up in ${i % 9} weeks`,
];

// Each side gets a database of its own, opened fresh: the same empty start, and on PGlite the
// memory one side's data took is not charged to the other.
async function open() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-import-"));
  const pgdb = process.env.BENCH_DATABASE_URL ? await freshPostgres(process.env.BENCH_DATABASE_URL) : undefined;
  const rt = await createRuntime(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: pgdb?.url }), {});
  const { workspace } = await createWorkspace(rt.db.prisma, `bench-${Date.now()}`);
  const base = await inTransaction(rt, (w) => createBase(w, workspace.id, { baseName: "Bench", columns: COLUMNS }, []));
  return { rt, dataDir, pgdb, workspaceId: workspace.id, baseId: base.baseId };
}

// The file: written once, outside the measurement. BENCH_FORMAT=xlsx writes the same rows as a
// workbook of shared strings, as spreadsheet programs save them.
const FORMAT = process.env.BENCH_FORMAT === "xlsx" ? "xlsx" : "csv";
const fileDir = mkdtempSync(path.join(tmpdir(), "cw-bench-import-file-"));
const csv = path.join(fileDir, `bench.${FORMAT}`);
if (FORMAT === "xlsx") {
  const ExcelJS = (await import("exceljs")).default;
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: csv, useSharedStrings: true });
  const sheet = book.addWorksheet("Bench");
  sheet.addRow(COLUMNS.map((c) => c.name)).commit();
  for (let i = 0; i < ROWS; i++) sheet.addRow(valuesOf(i)).commit();
  sheet.commit();
  await book.commit();
} else {
  const out = createWriteStream(csv);
  out.write(`${COLUMNS.map((c) => c.name).join(",")}\n`);
  for (let i = 0; i < ROWS; i++)
    if (
      !out.write(
        `${valuesOf(i)
          .map((v) => (v.includes(",") ? `"${v}"` : v))
          .join(",")}\n`,
      )
    )
      await once(out, "drain");
  out.end();
  await once(out, "finish");
}
const size = (await stat(csv)).size;

// The floor: Add Rows, 10,000 rows a request, the same values.
const floor = await open();
let rssBefore = process.memoryUsage().rss;
let peak = peakRss();
const t1 = performance.now();
for (let i = 0; i < ROWS; i += 10_000) {
  const rows = Array.from({ length: Math.min(10_000, ROWS - i) }, (_, j) => ({
    cells: Object.fromEntries(COLUMNS.map((c, k) => [c.name, valuesOf(i + j)[k]])),
  }));
  await inTransaction(floor.rt, (w) => addRows(w, floor.workspaceId, floor.baseId, { rows }, floor.rt.config.runs));
}
const floorMs = performance.now() - t1;
const floorRss = peak.stop() - rssBefore;
const vendor = floor.rt.db.vendor;
await stopRuntime(floor.rt);
await floor.pgdb?.drop();
rmSync(floor.dataDir, { recursive: true, force: true });
global.gc?.();

// The import.
const target = await open();
const rt = target.rt;
rssBefore = process.memoryUsage().rss;
const heapBefore = process.memoryUsage().heapUsed;
let heapPeak = heapBefore;
const heapTimer = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 100);
peak = peakRss();
const t0 = performance.now();
const imp = await createImport(
  rt,
  target.workspaceId,
  target.baseId,
  { mergeOn: [], createColumns: true, typecast: true, runAi: true, header: true },
  async (to) => {
    await copyFile(csv, to);
    return FORMAT === "xlsx"
      ? { name: "bench.xlsx", contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", size }
      : { name: "bench.csv", contentType: "text/csv", size };
  },
);
const worker = await startImportWorker(rt, { pollMs: 20 });
const progress = rt.bus.on((e) => {
  if (e.type === "import.updated" && e.linesDone % 20_000 === 0)
    console.error(`  … ${e.linesDone.toLocaleString("en-US")} lines, ${secs(performance.now() - t0)}`);
});
let row = await rt.db.prisma.importJob.findUniqueOrThrow({ where: { id: imp.id } });
while (row.status !== "done" && row.status !== "failed") {
  await new Promise((r) => setTimeout(r, 50));
  row = await rt.db.prisma.importJob.findUniqueOrThrow({ where: { id: imp.id } });
}
const importMs = performance.now() - t0;
progress();
const importRss = peak.stop() - rssBefore;
clearInterval(heapTimer);
const importHeap = heapPeak - heapBefore;
await worker.stop();
if (row.status !== "done" || row.rowsCreated !== ROWS)
  throw new Error(`the import ended ${row.status} with ${row.rowsCreated} rows: ${JSON.stringify(row.errors)}`);

const rate = (ms: number) => Math.round(ROWS / (ms / 1000));
console.log(
  `bench:import — ${ROWS.toLocaleString("en-US")} rows × ${COLUMNS.length} columns, ${mb(size)} ${FORMAT.toUpperCase()}, ${vendor}\n`,
);
console.log(
  table([
    ["", "time", "rows/s", "RSS growth", "goal"],
    [
      `import (${FORMAT.toUpperCase()}, both passes)`,
      secs(importMs),
      rate(importMs).toLocaleString("en-US"),
      mb(importRss),
      `≥ ${Math.round(rate(floorMs) * 0.8).toLocaleString("en-US")} rows/s, < 100 MB`,
    ],
    ["floor: add-rows × 10,000", secs(floorMs), rate(floorMs).toLocaleString("en-US"), mb(floorRss), "—"],
  ]),
);
console.log(
  `\nratio: ${(rate(importMs) / rate(floorMs)).toFixed(2)}× the floor; the import's JS heap grew ${mb(importHeap)} at its peak`,
);
if (vendor === "pglite")
  console.log("(on PGlite the RSS includes the embedded database's own memory, which grows with the data it holds)");
await stopRuntime(rt);
await target.pgdb?.drop();
rmSync(target.dataDir, { recursive: true, force: true });
rmSync(fileDir, { recursive: true, force: true });
