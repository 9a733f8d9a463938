// npm run bench:history — what cell history costs in storage. 100,000 generated cells, each
// answered once and then re-run 10 times, every re-run changing every value (the worst case: a
// refresh that finds the same value records nothing). Sources stay the same for 70% of the cells
// and change for the rest; confidence changes each time. The history is written by the real
// code path of stored answers (recordWrittenValues, batches of 1,000 as the engine stores them).
// Goal: the history under 2× the cells' own size (the cells table with its indexes, plus the
// values in their rows). The floor is the same changes in the plain layout, one row per change.
//   BENCH_HISTORY_CELLS (default 100,000) and BENCH_HISTORY_ROUNDS (10) shrink it;
//   PostgreSQL is measured too when 127.0.0.1:5432 answers (BENCH_DATABASE_URL: another server).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../lib/config.ts";
import { createRuntime, stopRuntime, type Runtime } from "../lib/runtime.ts";
import { createWorkspace } from "../lib/workspaces.ts";
import { inTransaction } from "../lib/db/work.ts";
import { createBase } from "../lib/domain/bases.ts";
import { loadBase } from "../lib/domain/base-context.ts";
import { recordWrittenValues, type WrittenValue } from "../lib/domain/cells/index.ts";
import { freshPostgres, postgresAnswers } from "./rows-floor.ts";
import { mb, secs, table } from "./support.ts";

const CELLS = Number(process.env.BENCH_HISTORY_CELLS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_HISTORY_ROUNDS ?? 10);
const BATCH = 1_000;
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

let recordMs = 0;
const sourcesOf = (i: number, round: number) => {
  const site = i % 10 < 7 ? `company-${i}` : `company-${i}-r${round}`;
  return [
    `https://${site}.example.com/about`,
    `https://news.example.org/${site}/team`,
    `https://registry.example.net/${site}`,
  ];
};
const headcountOf = (i: number, round: number) => String(50 + ((i * 7919 + round * 104_729) % 5_000));
const confidenceOf = (i: number, round: number) => Math.round((0.5 + ((i + round) % 50) / 100) * 100) / 100;
const metadataOf = (i: number, round: number) => ({
  sources: sourcesOf(i, round),
  confidenceScore: confidenceOf(i, round),
  additionalDetails: `The company's about page lists ${headcountOf(i, round)} employees; the registry agrees within 5%.`,
  excerpts: Object.fromEntries(
    sourcesOf(i, round).map((u) => [u, `… a team of ${headcountOf(i, round)} people across three offices …`]),
  ),
});

async function seed(rt: Runtime) {
  const { workspace } = await createWorkspace(rt.db.prisma, `bench-${Date.now()}`);
  const created = await inTransaction(rt, (w) =>
    createBase(
      w,
      workspace.id,
      {
        baseName: "History",
        columns: [
          { name: "Company", isPrimary: true },
          {
            name: "Headcount",
            type: "number",
            isAiEnabled: true,
            inputColumns: ["Company"],
            columnOptions: { autoRun: "never" },
          },
        ],
      },
      [],
    ),
  );
  const baseCtx = await loadBase(rt.db.prisma, workspace.id, created.baseId);
  const [company, headcount] = (
    await rt.db.prisma.column.findMany({ where: { sheetId: baseCtx.sheetId }, orderBy: { position: "asc" } })
  ).map((c) => c.id);
  const ids = Array.from({ length: CELLS }, (_, i) => `sr_bench${String(i).padStart(16, "0")}`);
  for (let at = 0; at < CELLS; at += 10_000) {
    const slice = ids.slice(at, at + 10_000);
    await rt.db.prisma.$executeRawUnsafe(
      `INSERT INTO rows (id, sheet_id, "values") SELECT id, $1, jsonb_build_object($2::text, 'Company ' || n, $3::text, v)
       FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS t(id, v, n)`,
      baseCtx.sheetId,
      company,
      headcount,
      slice,
      slice.map((_, k) => headcountOf(at + k, 0)),
    );
    await rt.db.prisma.$executeRawUnsafe(
      `INSERT INTO cells (row_id, column_id, sheet_id, status, metadata, finished_at, checked_at, input_hash)
       SELECT id, $1, $2, 'done', m::jsonb, now(), now(), md5(id) FROM unnest($3::text[], $4::text[]) AS t(id, m)`,
      headcount,
      baseCtx.sheetId,
      slice,
      slice.map((_, k) => JSON.stringify(metadataOf(at + k, 0))),
    );
  }
  return { baseCtx, headcount, ids };
}

/** One re-run of every cell: the new answers stored, and their changes recorded as storeValues does. */
async function rerun(rt: Runtime, s: Awaited<ReturnType<typeof seed>>, round: number) {
  for (let at = 0; at < CELLS; at += BATCH) {
    const slice = s.ids.slice(at, at + BATCH);
    await inTransaction(rt, async (w) => {
      await w.tx.$executeRawUnsafe(
        `UPDATE cells SET metadata = t.m::jsonb, checked_at = now() FROM unnest($1::text[], $2::text[]) AS t(id, m)
         WHERE cells.row_id = t.id AND cells.column_id = $3`,
        slice,
        slice.map((_, k) => JSON.stringify(metadataOf(at + k, round))),
        s.headcount,
      );
      await w.tx.$executeRawUnsafe(
        `UPDATE rows SET "values" = jsonb_set("values", ARRAY[$3::text], to_jsonb(t.v)) FROM unnest($1::text[], $2::text[]) AS t(id, v) WHERE rows.id = t.id`,
        slice,
        slice.map((_, k) => headcountOf(at + k, round)),
        s.headcount,
      );
      const written = slice.map(
        (rowId, k): WrittenValue => ({
          baseCtx: s.baseCtx,
          rowId,
          columnId: s.headcount,
          kind: "answer",
          runId: `run_bench${String(round).padStart(15, "0")}`,
          column: { type: "number" },
          before: { value: headcountOf(at + k, round - 1), status: "done" },
          after: {
            value: headcountOf(at + k, round),
            status: "done",
            sources: sourcesOf(at + k, round),
            confidence: confidenceOf(at + k, round),
          },
        }),
      );
      const r0 = performance.now();
      await recordWrittenValues(w, written);
      recordMs += performance.now() - r0;
    });
  }
}

const sizeOf = async (rt: Runtime, sql: string, ...params: unknown[]) =>
  Number((await rt.db.prisma.$queryRawUnsafe<{ b: string }[]>(sql, ...params))[0].b);

/** The same changes, one row per change: the layout the history does not use. */
async function plainLayout(rt: Runtime): Promise<number> {
  await rt.db.prisma.$executeRawUnsafe(
    `CREATE TABLE bench_plain_history (id text, row_id text, column_id text, base_id text, run_id text, at timestamptz,
       kind text, before text, after text, before_status text, after_status text, sources jsonb, confidence float8)`,
  );
  await rt.db.prisma.$executeRawUnsafe(`CREATE INDEX ON bench_plain_history (row_id, column_id, at)`);
  await rt.db.prisma.$executeRawUnsafe(
    `INSERT INTO bench_plain_history SELECT e->>'i', h.row_id, h.column_id, h.base_id, e->>'r', (e->>'t')::timestamptz, e->>'k',
       e->>'b', e->>'v', e->>'bs', e->>'vs', e->'s', (e->>'c')::float8
     FROM cell_history h, jsonb_array_elements(h.entries) e`,
  );
  return sizeOf(rt, `SELECT pg_total_relation_size('bench_plain_history')::text AS b`);
}

async function measure(store: "pglite" | "postgres"): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-history-"));
  const pgdb = store === "postgres" ? await freshPostgres(PG_URL) : undefined;
  const rt = await createRuntime(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: pgdb?.url }));
  try {
    console.log(
      `\n== ${store}: ${CELLS.toLocaleString("en")} cells, answered, then ${ROUNDS} re-runs changing every value`,
    );
    recordMs = 0;
    const s = await seed(rt);
    const t0 = performance.now();
    for (let round = 1; round <= ROUNDS; round++) await rerun(rt, s, round);
    const ms = performance.now() - t0;
    // Live sizes: each re-run also left dead versions of the cells and rows it rewrote.
    for (const t of ["cells", "rows", "cell_history"]) await rt.db.prisma.$executeRawUnsafe(`VACUUM FULL ${t}`);
    const history = await sizeOf(rt, `SELECT pg_total_relation_size('cell_history')::text AS b`);
    const cells = await sizeOf(rt, `SELECT pg_total_relation_size('cells')::text AS b`);
    const values = await sizeOf(rt, `SELECT sum(pg_column_size("values"->$1))::text AS b FROM rows`, s.headcount);
    const entries = await sizeOf(rt, `SELECT sum(jsonb_array_length(entries))::text AS b FROM cell_history`);
    const plain = await plainLayout(rt);
    const own = cells + values;
    const ratio = history / own;
    console.log(`   recording: ${secs(recordMs)} (${((recordMs * 1000) / (CELLS * ROUNDS)).toFixed(0)} µs a change)`);
    console.log(
      `   ${entries.toLocaleString("en")} changes recorded in ${secs(ms)} (${((ms * 1000) / entries).toFixed(0)} µs a change)`,
    );
    return [
      store,
      mb(own),
      mb(history),
      `${ratio.toFixed(2)}×`,
      mb(plain),
      `${(plain / own).toFixed(2)}×`,
      ratio < 2 ? "ok" : "OVER",
    ];
  } finally {
    await stopRuntime(rt);
    await pgdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results = [await measure("pglite")];
if (await postgresAnswers(PG_URL)) results.push(await measure("postgres"));
console.log(
  `\n${table([["database", "cells' own size", "history", "× cells", "floor: a row per change", "× cells", "goal < 2×"], ...results])}`,
);
