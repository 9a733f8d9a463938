// bench:million's export measures (median of BENCH_EXPORT_ROUNDS, 3 by default), and its quick
// seed for BENCH_ONLY=export.
// On PostgreSQL the export streams one COPY of lines the database formats; beside it, in the same
// run: the keyset pages it replaced, the same COPY read raw (no framing stripped, nothing handed
// on), a plain SELECT of the same lines, and a COPY of the unformatted values.
import { to as copyTo } from "pg-copy-streams";
import type { Runtime } from "../lib/runtime.ts";
import { openExport } from "../lib/domain/export/export.ts";
import { exportColumns } from "../lib/domain/export/columns.ts";
import { csvLineSql } from "../lib/domain/export/csv-lines.ts";
import { prepareRowsQuery } from "../lib/domain/rows/query.ts";
import { sqlId } from "../lib/domain/query/sql.ts";
import { mb, peakRss, secs } from "./support.ts";

const fmt = (n: number) => n.toLocaleString("en-US");
const rate = (rows: number, ms: number) => Math.round(rows / (ms / 1000));

/**
 * The rows of bench:million's file, written by one INSERT ... SELECT per 100,000 instead of the
 * import job. The trigram index on the search text is dropped first (this database is thrown away
 * after): it is most of a row's write, and an export never reads it.
 */
export async function seedRows(
  rt: Runtime,
  baseId: string,
  rows: number,
  words: readonly string[],
  countries: readonly string[],
): Promise<void> {
  const [sheet] = await rt.db.read<{ id: string }>(`SELECT id FROM sheets WHERE base_id = $1`, [baseId]);
  const cols = await rt.db.read<{ id: string }>(`SELECT id FROM columns WHERE sheet_id = $1 ORDER BY position`, [
    sheet.id,
  ]);
  const values = [
    `'person' || g || '@company' || (g % 997) || '.test'`,
    `($3::text[])[1 + (g * 7919) % ${words.length}] || ' ' || ($3::text[])[1 + (g * 104729) % ${words.length}] || ' ' || g`,
    `($4::text[])[1 + (g / 7) % ${countries.length}]`,
    `((g * 37) % 5000)::text`,
    `(1980 + g % 44) || '-' || lpad((1 + g % 12)::text, 2, '0') || '-' || lpad((1 + g % 28)::text, 2, '0')`,
    `'https://company' || (g % 997) || '.test/'`,
    `CASE WHEN g % 3 = 0 THEN 'true' ELSE 'false' END`,
    `'Met at event ' || (g % 50) || '; ' || CASE WHEN g % 11 = 0 THEN 'series b in talks' ELSE 'follow up' END || ' in ' || (g % 9) || ' weeks'`,
  ];
  const object = cols.map((c, i) => `'${c.id}', ${values[i]}`).join(", ");
  await rt.db.exec(`DROP INDEX IF EXISTS rows_search_trgm_idx`);
  for (let from = 0; from < rows; from += 100_000) {
    const to = Math.min(rows, from + 100_000) - 1;
    await rt.db.prisma.$executeRawUnsafe(
      `INSERT INTO rows (id, sheet_id, "values")
       SELECT 'rw_bench' || lpad(g::text, 8, '0'), $5, jsonb_build_object(${object})
       FROM generate_series($1::bigint, $2::bigint) AS g ORDER BY g`,
      from,
      to,
      [...words],
      [...countries],
      sheet.id,
    );
    console.error(`  … seeded ${fmt(to + 1)} rows`);
  }
  await rt.db.exec(`VACUUM ANALYZE rows`);
}

/** Reads a chunk stream to its end: bytes, elapsed ms and the RSS growth at its peak. */
async function timed(run: () => AsyncIterable<string | Uint8Array> | Promise<number>) {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  const peak = peakRss();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const out = run();
  let bytes = 0;
  if (out instanceof Promise) bytes = await out;
  else for await (const chunk of out) bytes += chunk.length;
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - t, bytes, rss: peak.stop() - before, cpuMs: (used.user + used.system) / 1000 };
}

const ROUNDS = Number(process.env.BENCH_EXPORT_ROUNDS ?? 3);

/** Each measure once per round, the rounds one after another, so that the load weighs on all alike. */
export async function exportMeasures(rt: Runtime, workspaceId: string, baseId: string, rows: number) {
  const options = { format: "csv" as const, metadata: false, ids: false, bom: true, raw: false };
  const pg = rt.db.vendor === "postgres";
  const pool = rt.db.pool;
  const copyOut = rt.db.copyOut;
  const measures: { what: string; goal?: string; run: () => AsyncIterable<string | Uint8Array> | Promise<number> }[] = [
    {
      what: pg ? "CSV export, keyset pages (before)" : "CSV export",
      goal: pg ? "" : "—",
      run: async function* () {
        yield* (await openExport(rt.db.prisma, workspaceId, baseId, options)).chunks;
      },
    },
  ];
  if (pool && copyOut) {
    const query = await prepareRowsQuery(rt.db.prisma, workspaceId, baseId, {});
    const lines = query.linesStatement(csvLineSql(exportColumns(query.columns, options), false), "\r\n");
    const raw = async (sql: string) => {
      const client = await pool.connect();
      try {
        let bytes = 0;
        for await (const chunk of client.query(copyTo(sql))) bytes += (chunk as Buffer).length;
        return bytes;
      } finally {
        client.release();
      }
    };
    measures.push(
      {
        what: "CSV export, one COPY (now)",
        goal: "≥ 150,000 rows/s, < 100 MB",
        run: async function* () {
          yield* (await openExport(rt.db.prisma, workspaceId, baseId, options, copyOut)).chunks;
        },
      },
      { what: "floor: the same COPY, read raw", run: () => raw(`COPY (${lines}) TO STDOUT (FORMAT binary)`) },
      {
        what: "plain SELECT of the same lines, all at once",
        run: async () => {
          const result = await pool.query({ text: lines, rowMode: "array" });
          return result.rows.reduce((n: number, r: string[]) => n + Buffer.byteLength(r[0]), 0);
        },
      },
      {
        what: "COPY of the unformatted values (jsonb)",
        run: () =>
          raw(`COPY (SELECT "values" FROM rows r WHERE r.sheet_id = ${sqlId(query.baseCtx.sheetId)} ORDER BY r.seq)
               TO STDOUT (FORMAT binary)`),
      },
    );
  }
  const results = measures.map(() => [] as Awaited<ReturnType<typeof timed>>[]);
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, m] of measures.entries()) results[i].push(await timed(m.run));
  // The median round's time and CPU; the largest RSS growth of any round.
  return measures.map((m, i) => {
    const byTime = [...results[i]].sort((a, b) => a.ms - b.ms);
    const mid = byTime[Math.floor(byTime.length / 2)];
    return [
      `${m.what} (${mb(mid.bytes)})`,
      secs(mid.ms),
      fmt(rate(rows, mid.ms)),
      secs(mid.cpuMs),
      `RSS +${mb(Math.max(...results[i].map((r) => r.rss)))}`,
      m.goal ?? "—",
    ];
  });
}
