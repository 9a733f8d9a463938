// npm run bench:engine — 5,000 rows × 2 AI columns (the second depends on the first) against the
// fake LLM at 200 ms latency, concurrency 32, no rate limit; then again with 10% of calls
// answered 429. Prints wall time beside the ideal (cells × 0.2 s / 32), CPU per cell, peak RSS.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../lib/config.ts";
import { createRuntime, stopRuntime } from "../lib/runtime.ts";
import { createWorkspace } from "../lib/workspaces.ts";
import { inTransaction } from "../lib/db/work.ts";
import { createBase } from "../lib/domain/bases.ts";
import { addRows } from "../lib/domain/rows-write.ts";
import { startEngine } from "../lib/engine/engine.ts";
import { startFakeLlmProcess, peakRss, mb, secs, table } from "./support.ts";

const ROWS = Number(process.env.BENCH_ROWS ?? 5_000);
const CONCURRENCY = 32;
const LATENCY_MS = 200;

async function run(label: string, llmArgs: string[]) {
  const llm = await startFakeLlmProcess(["--latency", String(LATENCY_MS), ...llmArgs]);
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-engine-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.BENCH_DATABASE_URL,
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
    createBase(w, workspace.id, {
      baseName: "Bench",
      columns: [
        { name: "Company", isPrimary: true },
        { name: "First", isAiEnabled: true, inputColumns: ["Company"] },
        { name: "Second", isAiEnabled: true, inputColumns: ["First"] },
      ],
    }),
  );
  const cells = ROWS * 2;
  const rss = peakRss();
  const cpu0 = process.cpuUsage();
  const t0 = Date.now();
  await inTransaction(rt, (w) => addRows(w, workspace.id, base.baseId, { rows: Array.from({ length: ROWS }, (_, i) => ({ cells: { Company: `Company ${i}` } })) }, rt.config.runs));
  await startEngine(rt);
  for (;;) {
    const open = await rt.db.prisma.cell.count({ where: { sheetId: base.sheet.id, status: { in: ["pending", "running"] } } });
    if (open === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
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
  await llm.stop();
  rmSync(dataDir, { recursive: true, force: true });
  const ideal = (cells * LATENCY_MS) / CONCURRENCY;
  return [label, cells, secs(wall), secs(ideal), (wall / ideal).toFixed(2) + "×", `${((cpu.user + cpu.system) / 1000 / cells).toFixed(2)} ms`, mb(peak), `${done}/${cells}`, `${charged} (${chargedCells[0].n} cells)`];
}

const header = ["run", "cells", "wall", "ideal", "wall/ideal", "CPU/cell", "peak RSS", "done", "charged"];
const results: (string | number)[][] = [header];
results.push(await run("200 ms, no errors", []));
results.push(await run("200 ms, 10% 429", ["--rate429", "0.1", "--retry-after", "1"]));
console.log(`\nbench:engine (${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite"}, concurrency ${CONCURRENCY}, target wall ≤ 1.15× ideal)\n`);
console.log(table(results));
