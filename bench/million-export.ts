// bench:million's export measures, and its quick seed for BENCH_ONLY=export.
// On PostgreSQL the export streams one COPY of lines the database formats; beside it, in the same
// run: the keyset pages it replaced, the same COPY read raw (no framing stripped, nothing handed
// on), a plain SELECT of the same lines, and a COPY of the unformatted values.
import { to as copyTo } from "pg-copy-streams";
import type { Runtime } from "../lib/runtime.ts";
import { openExport } from "../lib/domain/export/export.ts";
import { exportColumns } from "../lib/domain/export/columns.ts";
import { csvLineSql } from "../lib/domain/export/csv-lines.ts";
import { prepareRowsQuery } from "../lib/domain/rows/query.ts";
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
  const t = performance.now();
  const out = run();
  let bytes = 0;
  if (out instanceof Promise) bytes = await out;
  else for await (const chunk of out) bytes += chunk.length;
  return { ms: performance.now() - t, bytes, rss: peak.stop() - before };
}

export async function exportMeasures(rt: Runtime, workspaceId: string, baseId: string, rows: number) {
  const options = { format: "csv" as const, metadata: false, ids: false, bom: true, raw: false };
  const line = (m: { ms: number; bytes: number; rss: number }, what: string, goal = "—") => [
    `${what} (${mb(m.bytes)})`,
    secs(m.ms),
    fmt(rate(rows, m.ms)),
    `RSS +${mb(m.rss)}`,
    goal,
  ];
  const pg = rt.db.vendor === "postgres";
  const table: (string | number)[][] = [];
  const paged = await timed(async function* () {
    yield* (await openExport(rt.db.prisma, workspaceId, baseId, options)).chunks;
  });
  table.push(line(paged, pg ? "CSV export, keyset pages (before)" : "CSV export", pg ? "" : "—"));
  const pool = rt.db.pool;
  if (!pool || !rt.db.copyOut) return table;

  const copied = await timed(async function* () {
    yield* (await openExport(rt.db.prisma, workspaceId, baseId, options, rt.db.copyOut)).chunks;
  });
  table.push(line(copied, "CSV export, one COPY (now)", "≥ 150,000 rows/s, < 100 MB"));

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
  table.push(
    line(await timed(() => raw(`COPY (${lines}) TO STDOUT (FORMAT binary)`)), "floor: the same COPY, read raw"),
  );
  table.push(
    line(
      await timed(async () => {
        const result = await pool.query({ text: lines, rowMode: "array" });
        return result.rows.reduce((n: number, r: string[]) => n + Buffer.byteLength(r[0]), 0);
      }),
      "plain SELECT of the same lines, all at once",
    ),
  );
  const [sheet] = await rt.db.read<{ id: string }>(`SELECT id FROM sheets WHERE base_id = $1`, [baseId]);
  table.push(
    line(
      await timed(() =>
        raw(`COPY (SELECT "values" FROM rows WHERE sheet_id = '${sheet.id}' ORDER BY seq) TO STDOUT (FORMAT binary)`),
      ),
      "COPY of the unformatted values (jsonb)",
    ),
  );
  return table;
}
