// npm run bench:storage — whether the database's size stays bounded while the same rows are
// updated again and again, on the production server, on PGlite and (when 127.0.0.1:5432 answers)
// PostgreSQL. A base of 100,000 rows × 6 columns; then 10 rounds, each updating every row through
// Update Rows (1,000 a request). The floor is the database's size after the first round. Goal: after
// the tenth, at most 1.5× that. The embedded database's size is its data directory's; PostgreSQL's is
// pg_database_size, read by the driver.
//   BENCH_STORAGE_ROWS (default 100,000) and BENCH_STORAGE_ROUNDS (10) shrink it for a quick look;
//   BENCH_SKIP_PGLITE=1 measures PostgreSQL only (BENCH_DATABASE_URL: another server).
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { type BenchServer, call, ensureBuild, startServer } from "./rows-server.ts";
import { freshPostgres, postgresAnswers } from "./rows-floor.ts";
import { COLUMNS, cellsOf } from "./rows-measures.ts";
import { mb, secs, table } from "./support.ts";

const ROWS = Number(process.env.BENCH_STORAGE_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_STORAGE_ROUNDS ?? 10);
const BATCH = 1_000;
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

function directorySize(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += entry.isDirectory() ? directorySize(p) : statSync(p).size;
  }
  return total;
}

async function fill(s: BenchServer, key: string, baseId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let at = 0; at < ROWS; at += 10_000) {
    const rows = Array.from({ length: Math.min(10_000, ROWS - at) }, (_, i) => ({ cells: cellsOf(at + i) }));
    const out = await call(s, key, "POST", `/api/v1/bases/${baseId}/add-rows`, { rows });
    ids.push(...out.rows.map((r: { id: string }) => r.id));
  }
  return ids;
}

async function updateAll(s: BenchServer, key: string, baseId: string, ids: string[], round: number): Promise<void> {
  for (let at = 0; at < ids.length; at += BATCH) {
    const rows = ids.slice(at, at + BATCH).map((id, i) => ({ id, cells: cellsOf(round * ROWS + at + i) }));
    const out = await call(s, key, "POST", `/api/v1/bases/${baseId}/update-rows`, { rows });
    if (out.errors.length) throw new Error(`Update Rows: ${JSON.stringify(out.errors[0])}`);
  }
}

async function benchStore(store: "pglite" | "postgres"): Promise<string[][]> {
  const key = `cw_${randomBytes(24).toString("hex")}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-storage-"));
  const pgdb = store === "postgres" ? await freshPostgres(PG_URL) : undefined;
  const client = pgdb ? new pg.Client({ connectionString: pgdb.url }) : undefined;
  await client?.connect();
  const size = async () =>
    client
      ? Number((await client.query("SELECT pg_database_size(current_database())::text AS b")).rows[0].b)
      : directorySize(dataDir);
  const server = await startServer({ DATA_DIR: dataDir, API_KEY: key, ...(pgdb ? { DATABASE_URL: pgdb.url } : {}) });
  try {
    console.log(`\n== ${store}: ${ROWS.toLocaleString("en")} rows, then ${ROUNDS} rounds of updating every row`);
    const { baseId } = await call(server, key, "POST", "/api/v1/bases", { baseName: "Storage", columns: COLUMNS });
    const ids = await fill(server, key, baseId);
    const sizes: number[] = [];
    const figures: string[][] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const t0 = performance.now();
      await updateAll(server, key, baseId, ids, round);
      sizes.push(await size());
      const ratio = sizes[sizes.length - 1] / sizes[0];
      console.log(
        `   round ${round}: ${secs(performance.now() - t0)}, ${mb(sizes[sizes.length - 1])} (${ratio.toFixed(2)}×)`,
      );
      figures.push([store, String(round), mb(sizes[sizes.length - 1]), `${ratio.toFixed(2)}×`]);
    }
    const last = sizes[sizes.length - 1] / sizes[0];
    figures[figures.length - 1].push(last <= 1.5 ? "ok" : "OVER");
    return figures;
  } finally {
    await server.stop();
    await client?.end();
    await pgdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log("== building the app (once)");
ensureBuild();
const figures = [["store", "round", "database size", "vs round 1", "≤ 1.5× after the last"]];
if (process.env.BENCH_SKIP_PGLITE !== "1") figures.push(...(await benchStore("pglite")));
if (process.env.BENCH_SKIP_PG !== "1" && (await postgresAnswers(PG_URL)))
  figures.push(...(await benchStore("postgres")));
else console.log("\n== PostgreSQL skipped");
console.log(`\n${table(figures.map((r) => [...r, ...Array(5 - r.length).fill("")]))}`);
