// npm run bench:million — a million rows of 8 typed columns in one base, on PGlite (BENCH_DATABASE_URL,
// an admin URL, for PostgreSQL: a fresh database, dropped after). BENCH_ROWS tries it smaller.
// Imports a CSV through the import job (both passes, batches, progress; with the process's CPU time,
// the database's too on PGlite, which a loaded machine's wall time hides), then times on the full base:
// Add Rows of 10,000; a filtered, sorted and searched first page (median of BENCH_RUNS) and its total
// count; a CSV export's rows/s and RSS growth. The floor, measured in the same run: on PostgreSQL a
// raw COPY of the same file into a plain table by the driver; on PGlite the import's RSS peak is
// the figure the goal bounds. BENCH_ONLY=export seeds the rows by SQL instead and times the export
// alone, beside its floors (million-export.ts).
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { copyFile, stat } from "node:fs/promises";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { from as copyFrom } from "pg-copy-streams";
import { loadConfig } from "../lib/config.ts";
import { createRuntime, stopRuntime } from "../lib/runtime.ts";
import { createWorkspace } from "../lib/workspaces.ts";
import { inTransaction } from "../lib/db/work.ts";
import { createBase } from "../lib/domain/bases.ts";
import { addRows } from "../lib/domain/rows/write.ts";
import { prepareRowsQuery, queryRows } from "../lib/domain/rows/query.ts";
import type { RowsQueryInput } from "../lib/domain/query/request.ts";
import { createImport } from "../lib/imports/create.ts";
import { startImportWorker } from "../lib/imports/worker.ts";
import { mb, peakRss, secs, table } from "./support.ts";
import { exportMeasures, seedRows } from "./million-export.ts";
import { freshPostgres } from "./rows-floor.ts";

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const EXPORT_ONLY = process.env.BENCH_ONLY === "export";
const EXPORT_HEADER = ["measure", "time", "rows/s", "client CPU", "memory", "goal"];
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const COUNTRIES = ["FR", "DE", "US", "JP", "GB", "BR"];
const COLUMNS = [
  { name: "Email", type: "email", isPrimary: true },
  { name: "Company" },
  { name: "Country", type: "select", columnOptions: { options: COUNTRIES } },
  { name: "Employees", type: "number" },
  { name: "Founded", type: "date" },
  { name: "Website", type: "url" },
  { name: "Active", type: "checkbox" },
  { name: "Notes", type: "long-text" },
];
// Company names from 30 × 30 syllable pairs: a name search matches about a thousand rows in a million.
const SYLLABLES =
  "ac me glo bex ini tech um brel la hoo li stark way ne won ka ty rell cy ber dyne soy lent van de lay pi ed per cor".split(
    " ",
  );
const WORDS = SYLLABLES.flatMap((a) => SYLLABLES.map((b) => a + b));
const valuesOf = (i: number) => [
  `person${i}@company${i % 997}.test`,
  `${WORDS[(i * 7919) % WORDS.length]} ${WORDS[(i * 104_729) % WORDS.length]} ${i}`,
  COUNTRIES[Math.floor(i / 7) % COUNTRIES.length],
  String((i * 37) % 5_000),
  `${1980 + (i % 44)}-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`,
  `https://company${i % 997}.test/`,
  i % 3 === 0 ? "true" : "false",
  `Met at event ${i % 50}; ${i % 11 === 0 ? "series b in talks" : "follow up"} in ${i % 9} weeks`,
];

if (EXPORT_ONLY) {
  const pgdb = process.env.BENCH_DATABASE_URL ? await freshPostgres(process.env.BENCH_DATABASE_URL) : undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-million-"));
  const rt = await createRuntime(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: pgdb?.url }), {});
  const { workspace } = await createWorkspace(rt.db.prisma, `bench-${Date.now()}`);
  const base = await inTransaction(rt, (w) =>
    createBase(w, workspace.id, { baseName: "Million", columns: COLUMNS }, []),
  );
  await seedRows(rt, base.baseId, ROWS, WORDS, COUNTRIES);
  const rows = await exportMeasures(rt, workspace.id, base.baseId, ROWS);
  console.log(
    `\nbench:million, export only — ${ROWS.toLocaleString("en-US")} rows × ${COLUMNS.length} columns, ${rt.db.vendor}\n`,
  );
  console.log(table([EXPORT_HEADER, ...rows]));
  await stopRuntime(rt);
  await pgdb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}

// The file: written once, outside the measurement.
const fileDir = mkdtempSync(path.join(tmpdir(), "cw-bench-million-file-"));
const csv = path.join(fileDir, "million.csv");
const out = createWriteStream(csv);
out.write(`${COLUMNS.map((c) => c.name).join(",")}\n`);
for (let i = 0; i < ROWS; i++) if (!out.write(`${valuesOf(i).join(",")}\n`)) await once(out, "drain");
out.end();
await once(out, "finish");
const size = (await stat(csv)).size;

const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-million-"));
const pgdb = process.env.BENCH_DATABASE_URL ? await freshPostgres(process.env.BENCH_DATABASE_URL) : undefined;
const rt = await createRuntime(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: pgdb?.url }), {});
const { workspace } = await createWorkspace(rt.db.prisma, `bench-${Date.now()}`);
const base = await inTransaction(rt, (w) => createBase(w, workspace.id, { baseName: "Million", columns: COLUMNS }, []));
const rate = (rows: number, ms: number) => Math.round(rows / (ms / 1000));
const fmt = (n: number) => n.toLocaleString("en-US");

// The floor (PostgreSQL): the same file by COPY into a plain table of 8 text columns, by the driver.
let floorMs: number | undefined;
if (rt.db.pool) {
  const client = await rt.db.pool.connect();
  await client.query(`CREATE TABLE copy_floor (${COLUMNS.map((_, i) => `c${i} text`).join(", ")})`);
  const t = performance.now();
  await pipeline(createReadStream(csv), client.query(copyFrom(`COPY copy_floor FROM STDIN (FORMAT csv, HEADER true)`)));
  floorMs = performance.now() - t;
  await client.query(`DROP TABLE copy_floor`);
  client.release();
}

// The import, through the job as the API starts it.
globalThis.gc?.();
const rssBefore = process.memoryUsage().rss;
const peak = peakRss();
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const imp = await createImport(
  rt,
  workspace.id,
  base.baseId,
  { mergeOn: [], createColumns: true, typecast: true, runAi: true, header: true },
  async (to) => {
    await copyFile(csv, to);
    return { name: "million.csv", contentType: "text/csv", size };
  },
);
const worker = await startImportWorker(rt, { pollMs: 20 });
const progress = rt.bus.on((e) => {
  if (e.type === "import.updated" && e.linesDone % 100_000 === 0)
    console.error(
      `  … ${fmt(e.linesDone)} lines, ${secs(performance.now() - t0)}, RSS ${mb(process.memoryUsage().rss)}`,
    );
});
let job = await rt.db.prisma.importJob.findUniqueOrThrow({ where: { id: imp.id } });
while (job.status !== "done" && job.status !== "failed") {
  await new Promise((r) => setTimeout(r, 100));
  job = await rt.db.prisma.importJob.findUniqueOrThrow({ where: { id: imp.id } });
}
const importMs = performance.now() - t0;
const importCpu = process.cpuUsage(cpu0);
const importPeak = peak.stop();
progress();
await worker.stop();
if (job.status !== "done" || job.rowsCreated !== ROWS)
  throw new Error(`the import ended ${job.status} with ${job.rowsCreated} rows: ${JSON.stringify(job.errors)}`);

// The sheet's indexes (sheet-indexes.ts): on PostgreSQL built once the import ends, in the
// background; everything below is measured with them, and their build is part of the import's cost.
const [{ id: sheetId }] = await rt.db.prisma.$queryRawUnsafe<{ id: string }[]>(
  `SELECT id FROM sheets WHERE base_id = $1`,
  base.baseId,
);
const typed = COLUMNS.filter((c) => c.type === "number" || c.type === "date").length;
for (;;) {
  const [state] = await rt.db.prisma.$queryRawUnsafe<{ valid: number; building: number }[]>(
    `SELECT (SELECT count(*) FROM pg_indexes i JOIN pg_class ic ON ic.relname = i.indexname JOIN pg_index x ON x.indexrelid = ic.oid
              WHERE i.tablename = 'rows' AND x.indisvalid AND i.indexdef LIKE '%' || $1 || '%')::int AS valid,
            (SELECT count(*) FROM pg_stat_progress_create_index WHERE datname = current_database())::int AS building`,
    sheetId,
  );
  if (state.valid >= typed + 1 && state.building === 0) break;
  await new Promise((r) => setTimeout(r, 100));
}
const indexedMs = performance.now() - t0;

// Add Rows of 10,000 into the full base.
const more = Array.from({ length: 10_000 }, (_, j) => ({
  cells: Object.fromEntries(COLUMNS.map((c, k) => [c.name, valuesOf(ROWS + j)[k]])),
}));
const t1 = performance.now();
await inTransaction(rt, (w) => addRows(w, workspace.id, base.baseId, { rows: more }, rt.config.runs));
const addMs = performance.now() - t1;

// The filtered, sorted and searched first page, and its total count: medians after 3 warm-up runs.
const query: RowsQueryInput = {
  filter: {
    and: [
      { column: "Employees", op: "gte", value: 50 },
      {
        or: [
          { column: "Notes", op: "contains", value: "series b" },
          { column: "Country", op: "eq", value: "FR" },
        ],
      },
    ],
  },
  sort: [{ column: "Employees", direction: "desc" }],
  search: WORDS[123],
  limit: 100,
};
async function median(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const start = performance.now();
    await run();
    if (i >= 3) times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}
const page = await queryRows(rt.db.prisma, workspace.id, base.baseId, query);
const pageMs = await median(() => queryRows(rt.db.prisma, workspace.id, base.baseId, query));
const prepared = await prepareRowsQuery(rt.db.prisma, workspace.id, base.baseId, query);
const total = await prepared.count();
const countMs = await median(() => prepared.count());

// The CSV export of every row, beside its floors.
const exportRows = await exportMeasures(rt, workspace.id, base.baseId, ROWS + 10_000);

const pg = rt.db.vendor === "postgres";
console.log(
  `\nbench:million — ${fmt(ROWS)} rows × ${COLUMNS.length} columns, ${mb(size)} CSV, ${pg ? "PostgreSQL" : "PGlite"}\n`,
);
console.log(
  table([
    ["measure", "figure", "rows/s", "memory", "goal"],
    [
      "import (CSV, both passes)",
      secs(importMs),
      fmt(rate(ROWS, importMs)),
      `RSS peak ${mb(importPeak)} (+${mb(importPeak - rssBefore)}); process CPU ${secs((importCpu.user + importCpu.system) / 1000)}`,
      pg ? "≥ 50,000 rows/s" : "RSS < 1 GB",
    ],
    ["… and its sheet's indexes built", secs(indexedMs), fmt(rate(ROWS, indexedMs)), "", "—"],
    ...(floorMs === undefined
      ? []
      : [["floor: COPY of the file into a plain table", secs(floorMs), fmt(rate(ROWS, floorMs)), "", "—"]]),
    [
      "Add Rows × 10,000 into the full base",
      `${addMs.toFixed(0)} ms`,
      fmt(rate(10_000, addMs)),
      "",
      pg ? "≥ 20,000 rows/s" : "—",
    ],
    [
      `filtered + sorted + searched first page (${page.rows.length} rows), median`,
      `${pageMs.toFixed(1)} ms`,
      "",
      "",
      pg ? "< 150 ms" : "< 300 ms",
    ],
    [`its total count (${fmt(total)}), median`, `${countMs.toFixed(1)} ms`, "", "", pg ? "< 500 ms" : "—"],
  ]),
);
console.log(`\n${table([EXPORT_HEADER, ...exportRows])}`);
if (floorMs !== undefined) console.log(`\nimport / COPY floor: ${(floorMs / importMs).toFixed(2)}× the floor's rate`);

await stopRuntime(rt);
await pgdb?.drop();
rmSync(dataDir, { recursive: true, force: true });
rmSync(fileDir, { recursive: true, force: true });
