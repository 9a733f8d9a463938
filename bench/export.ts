// npm run bench:export — 100,000 rows × 8 columns (BENCH_ROWS for more, e.g. 1000000) on PGlite
// (BENCH_DATABASE_URL, an admin URL, for PostgreSQL: the run creates a database of its own and drops
// it after), exported as CSV, XLSX and JSON Lines through the export
// domain, beside the floors measured in the same run: the same keyset pages read through Query
// Rows' compiler and through the bare driver, with no formatting; and CSV formatted in JavaScript,
// as before rows were formatted in SQL. Goals: CSV at 100,000 rows/s or more, RSS growth < 100 MB.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../lib/config.ts";
import { createRuntime, stopRuntime } from "../lib/runtime.ts";
import { createWorkspace } from "../lib/workspaces.ts";
import { inTransaction } from "../lib/db/work.ts";
import { createBase } from "../lib/domain/bases.ts";
import { prepareRowsQuery } from "../lib/domain/rows/query.ts";
import { exportPages } from "../lib/domain/export/pages.ts";
import { openExport } from "../lib/domain/export/export.ts";
import type { ExportFormat } from "../lib/domain/export/formats.ts";
import { exportColumns } from "../lib/domain/export/columns.ts";
import { csvChunks } from "../lib/domain/export/csv.ts";
import { mb, peakRss, table } from "./support.ts";
import { freshPostgres } from "./rows-floor.ts";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const GOAL_ROWS_PER_S = 100_000;
const GOAL_RSS_MB = 100;

const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-export-"));
const pgdb = process.env.BENCH_DATABASE_URL ? await freshPostgres(process.env.BENCH_DATABASE_URL) : undefined;
const rt = await createRuntime(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: pgdb?.url }));
const { workspace } = await createWorkspace(rt.db.prisma, `bench-${Date.now()}`);
const base = await inTransaction(rt, (w) =>
  createBase(
    w,
    workspace.id,
    {
      baseName: "Bench export",
      columns: [
        { name: "Company", isPrimary: true },
        { name: "Website", type: "url" },
        { name: "Employees", type: "number" },
        { name: "Founded", type: "date" },
        { name: "Public", type: "checkbox" },
        { name: "Email", type: "email" },
        { name: "City", type: "short-text" },
        { name: "Summary", type: "long-text" },
      ],
    },
    [],
  ),
);
const col = Object.fromEntries(base.sheetColumns.map((c: { name: string; id: string }) => [c.name, c.id]));

// The rows are written in one statement per 100,000: this measures reading them, not writing them.
const t0 = Date.now();
for (let i = 0; i < ROWS; i += 100_000) {
  await rt.db.prisma.$executeRawUnsafe(
    `INSERT INTO rows (id, sheet_id, "values")
     SELECT 'sr_' || substr(md5($1), 1, 8) || lpad(g::text, 9, '0'), $1, jsonb_build_object(
       $2::text, 'Company ' || g, $3::text, 'https://company-' || g || '.example', $4::text, (g % 5000)::text,
       $5::text, to_char(date '1990-01-01' + (g % 9000), 'YYYY-MM-DD'), $6::text, CASE WHEN g % 2 = 0 THEN 'true' ELSE 'false' END,
       $7::text, 'info@company-' || g || '.example', $8::text, 'City ' || (g % 300), $9::text, 'Company ' || g || ' makes things, "well"; founded by people.')
     FROM generate_series(${i + 1}, ${Math.min(i + 100_000, ROWS)}) AS g ORDER BY g`,
    base.sheet.id,
    col.Company,
    col.Website,
    col.Employees,
    col.Founded,
    col.Public,
    col.Email,
    col.City,
    col.Summary,
  );
}
// Add Rows and imports analyze the table as they write (domain/rows/apply.ts); a load through SQL
// has to do it itself, or every page plans for a handful of rows and sorts the whole rest.
// On PostgreSQL it can lose a deadlock to the new number and date columns' index builds: it tries again.
for (let attempt = 1; ; attempt++) {
  try {
    await rt.db.prisma.$executeRawUnsafe(`ANALYZE rows`);
    break;
  } catch (e) {
    if (attempt === 5) throw e;
    await new Promise((r) => setTimeout(r, 500 * attempt));
  }
}
const loadSecs = ((Date.now() - t0) / 1000).toFixed(1);

interface Result {
  label: string;
  rows: number;
  ms: number;
  bytes: number;
  rssGrowth: number;
}

// Each line's growth starts from a collected heap (npm run bench:export passes --expose-gc), so
// that the garbage an earlier line left is not counted against the next.
async function measure(label: string, run: () => Promise<{ rows: number; bytes: number }>): Promise<Result> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  const peak = peakRss();
  const start = performance.now();
  const { rows, bytes } = await run();
  const ms = performance.now() - start;
  return { label, rows, bytes, ms, rssGrowth: peak.stop() - before };
}

// The floor under the floor: the same keyset pages through the database driver, without Prisma.
const driverFloor = () =>
  measure("floor: driver keyset pages", async () => {
    const sql = `SELECT r.id, r.seq, r."values" FROM rows r WHERE r.sheet_id = $1 AND r.seq > $2 ORDER BY r.seq LIMIT 2000`;
    const read = async (after: string): Promise<{ seq: string }[]> =>
      rt.db.pool
        ? (await rt.db.pool.query(sql, [base.sheet.id, after])).rows
        : await rt.db.read<{ seq: string }>(sql, [base.sheet.id, after]);
    let rows = 0;
    for (
      let after = "0", page = await read(after);
      page.length > 0;
      after = String(page[page.length - 1].seq), page = await read(after)
    )
      rows += page.length;
    return { rows, bytes: 0 };
  });

const floor = () =>
  measure("floor: Query Rows keyset pages", async () => {
    const query = await prepareRowsQuery(rt.db.prisma, workspace.id, base.baseId, {});
    let rows = 0;
    for await (const page of exportPages(query, false)) rows += page.length;
    return { rows, bytes: 0 };
  });

const file = (format: ExportFormat) =>
  measure(`export ${format}`, async () => {
    // As the route opens it: by COPY on PostgreSQL.
    const f = await openExport(
      rt.db.prisma,
      workspace.id,
      base.baseId,
      { format, metadata: false, ids: false, bom: true, raw: false },
      rt.db.copyOut,
    );
    let bytes = 0;
    for await (const chunk of f.chunks) bytes += chunk.length;
    return { rows: ROWS, bytes };
  });

// CSV as every export wrote it before rows were formatted in SQL (and as metadata exports still do).
const csvInJs = () =>
  measure("export csv, formatted in JavaScript", async () => {
    const query = await prepareRowsQuery(rt.db.prisma, workspace.id, base.baseId, {});
    const columns = exportColumns(query.columns, { metadata: false, ids: false });
    let bytes = 0;
    for await (const chunk of csvChunks(columns, exportPages(query, false), { bom: true, raw: false }))
      bytes += chunk.length;
    return { rows: ROWS, bytes };
  });

const results: Result[] = [await floor(), await driverFloor(), await file("csv"), await csvInJs(), await file("jsonl")];
if (process.env.BENCH_SKIP_XLSX !== "1") results.push(await file("xlsx"));

const rate = (r: Result) => Math.round(r.rows / (r.ms / 1000));
console.log(
  `\nbench:export — ${ROWS.toLocaleString("en-US")} rows × 8 columns on ${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite"} (loaded in ${loadSecs} s)\n`,
);
console.log(
  table([
    ["", "rows/s", "seconds", "output", "RSS growth"],
    ...results.map((r) => [
      r.label,
      rate(r).toLocaleString("en-US"),
      (r.ms / 1000).toFixed(2),
      r.bytes ? mb(r.bytes) : "-",
      mb(r.rssGrowth),
    ]),
  ]),
);
const csv = results[2];
console.log(
  `\ngoal: CSV ≥ ${GOAL_ROWS_PER_S.toLocaleString("en-US")} rows/s (${rate(csv) >= GOAL_ROWS_PER_S ? "met" : "missed"}), ` +
    `RSS growth < ${GOAL_RSS_MB} MB for each export (${results.filter((r) => r.label.startsWith("export")).every((r) => r.rssGrowth < GOAL_RSS_MB * 1024 * 1024) ? "met" : "missed"}); ` +
    `CSV runs at ${((rate(csv) / rate(results[0])) * 100).toFixed(0)}% of the Query Rows floor.`,
);

await stopRuntime(rt);
await pgdb?.drop();
rmSync(dataDir, { recursive: true, force: true });
