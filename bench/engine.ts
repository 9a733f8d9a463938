// npm run bench:engine — BENCH_ROWS rows (default 5,000) × BENCH_COLUMNS AI columns (default 2;
// each depends on the one before) against the fake LLM at 200 ms latency, concurrency
// BENCH_CONCURRENCY (default 32), no rate limit; then again with 10% of calls answered 429. Prints wall time beside the ideal (cells × 0.2 s / 32) and beside a floor measured
// in the same run (the same calls to the same fake model at the same concurrency, by plain fetch,
// with no database), CPU per cell, peak RSS. BENCH_DATABASE_URL (an admin URL) runs each pass on a
// fresh PostgreSQL database, dropped afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../lib/config.ts";
import { createRuntime, stopRuntime } from "../lib/runtime.ts";
import { createWorkspace } from "../lib/workspaces.ts";
import { inTransaction } from "../lib/db/work.ts";
import { createBase } from "../lib/domain/bases.ts";
import { addRows } from "../lib/domain/rows/write.ts";
import { startEngine } from "../lib/engine/engine.ts";
import { startFakeLlmProcess, peakRss, mb, secs, table, waitForRuns } from "./support.ts";
import { freshPostgres } from "./rows-floor.ts";

const ROWS = Number(process.env.BENCH_ROWS ?? 5_000);
const COLUMNS = Number(process.env.BENCH_COLUMNS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const LATENCY_MS = 200;

/**
 * The floor: as many calls as the run makes cells, CONCURRENCY at a time. A call answered 429 is
 * asked again after its Retry-After, without holding its slot meanwhile (as the engine does).
 */
async function floor(cells: number, llmArgs: string[]): Promise<number> {
  const llm = await startFakeLlmProcess(["--latency", String(LATENCY_MS), ...llmArgs]);
  const due = Array.from({ length: cells }, (_, i) => i);
  const idle: (() => void)[] = [];
  let left = cells;
  const call = (i: number) =>
    fetch(`${llm.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "bench", messages: [{ role: "user", content: `Company ${i}` }] }),
    });
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left > 0) {
        const i = due.shift();
        if (i === undefined) {
          await new Promise<void>((r) => idle.push(r));
          continue;
        }
        const res = await call(i);
        await res.text();
        if (res.status === 429) {
          setTimeout(
            () => {
              due.push(i);
              idle.shift()?.();
            },
            Number(res.headers.get("retry-after") ?? 1) * 1000,
          );
        } else if (--left === 0) idle.splice(0).forEach((wake) => wake());
      }
    }),
  );
  const wall = Date.now() - t0;
  await llm.stop();
  return wall;
}

async function run(label: string, llmArgs: string[]) {
  const llm = await startFakeLlmProcess(["--latency", String(LATENCY_MS), ...llmArgs]);
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-engine-"));
  // A fresh database a run: one left from earlier runs made each run slower than the last.
  const pgdb = process.env.BENCH_DATABASE_URL ? await freshPostgres(process.env.BENCH_DATABASE_URL) : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: pgdb?.url,
    OPENAI_BASE_URL: llm.baseUrl,
    AI_MODEL: "openai:bench",
    AI_CONCURRENCY: String(CONCURRENCY),
    AI_RPM: "0",
    AI_RETRY_BASE_MS: "200",
    AI_MAX_ATTEMPTS: "8",
  });
  const rt = await createRuntime(config, process.env.BENCH_MEMORY === "1" ? { target: { kind: "pglite-memory" } } : {});
  const { workspace } = await createWorkspace(rt.db.prisma, `bench-${Date.now()}`);
  const base = await inTransaction(rt, (w) =>
    createBase(
      w,
      workspace.id,
      {
        baseName: "Bench",
        columns: [
          { name: "Company", isPrimary: true },
          ...Array.from({ length: COLUMNS }, (_, i) => ({
            name: `AI ${i + 1}`,
            isAiEnabled: true,
            inputColumns: [i === 0 ? "Company" : `AI ${i}`],
          })),
        ],
      },
      [],
    ),
  );
  const cells = ROWS * COLUMNS;
  const rss = peakRss();
  const cpu0 = process.cpuUsage();
  const t0 = Date.now();
  await inTransaction(rt, (w) =>
    addRows(
      w,
      workspace.id,
      base.baseId,
      { rows: Array.from({ length: ROWS }, (_, i) => ({ cells: { Company: `Company ${i}` } })) },
      rt.config.runs,
    ),
  );
  await startEngine(rt);
  await waitForRuns(rt, base.baseId, "bench:engine");
  const wall = Date.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const peak = rss.stop();
  const done = await rt.db.prisma.cell.count({ where: { sheetId: base.sheet.id, status: "done" } });
  const charged = await rt.db.prisma.creditEntry.count({ where: { reason: "cell_run", baseId: base.baseId } });
  const chargedCells = await rt.db.prisma.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT count(DISTINCT (row_id, column_id)) AS n FROM credit_entries WHERE reason = 'cell_run' AND base_id = $1`,
    base.baseId,
  );
  await stopRuntime(rt);
  await pgdb?.drop();
  await llm.stop();
  rmSync(dataDir, { recursive: true, force: true });
  const ideal = (cells * LATENCY_MS) / CONCURRENCY;
  const bare = await floor(cells, llmArgs);
  return [
    label,
    cells,
    secs(wall),
    secs(ideal),
    `${(wall / ideal).toFixed(2)}×`,
    secs(bare),
    `${(wall / bare).toFixed(2)}×`,
    `${((cpu.user + cpu.system) / 1000 / cells).toFixed(2)} ms`,
    mb(peak),
    `${done}/${cells}`,
    `${charged} (${chargedCells[0].n} cells)`,
  ];
}

const header = [
  "run",
  "cells",
  "wall",
  "ideal",
  "wall/ideal",
  "floor (fetch)",
  "wall/floor",
  "CPU/cell",
  "peak RSS",
  "done",
  "charged",
];
const results: (string | number)[][] = [header];
results.push(await run("200 ms, no errors", []));
// BENCH_NO_429=1 skips the second run (a 50,000-cell run takes long enough alone).
if (process.env.BENCH_NO_429 !== "1")
  results.push(await run("200 ms, 10% 429", ["--rate429", "0.1", "--retry-after", "1"]));
console.log(
  `\nbench:engine (${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite"}, concurrency ${CONCURRENCY}, goal: wall ≤ 1.05× ideal at 100,000 cells)\n`,
);
console.log(table(results));
