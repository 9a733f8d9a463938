// npm run bench:memory — 120 MB of cell text added through Add Rows (12 requests of 10 MB), then
// read back through Get Rows (streamed) and a CSV export, on PGlite (BENCH_DATABASE_URL for
// PostgreSQL). Prints the process's RSS growth for each step beside the floor measured in the same
// run: the same rows inserted through the bare database driver. Each side runs in a process of its
// own, so that neither is charged for the other's memory, with the young-generation cap `npm start`
// sets (--max-semi-space-size=8). Goal: adding raises RSS by < 150 MB.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../lib/config.ts";
import { createRuntime, stopRuntime } from "../lib/runtime.ts";
import { createWorkspace } from "../lib/workspaces.ts";
import { inTransaction } from "../lib/db/work.ts";
import { createBase } from "../lib/domain/bases.ts";
import { addRows } from "../lib/domain/rows/write.ts";
import { openRowsReader } from "../lib/domain/rows/read.ts";
import { openExport } from "../lib/domain/export/export.ts";
import { mb, peakRss, table } from "./support.ts";

const TOTAL_MB = Number(process.env.BENCH_MB ?? 120);
const COLUMNS = ["Profile", "History", "Notes", "Summary"];
const CELL_CHARS = 5_000;
const ROWS_PER_REQUEST = 500; // 500 rows × 4 cells × 5,000 characters = 10 MB a request
const REQUESTS = Math.round((TOTAL_MB * 1024 * 1024) / (ROWS_PER_REQUEST * COLUMNS.length * CELL_CHARS));
const GOAL_MB = 150;

// Different text in every cell, so that neither side gains from compression of repeats.
const text = (row: number, col: number) => {
  const seed = `row ${row} column ${col} `;
  let s = "";
  for (let i = 0; s.length < CELL_CHARS; i++) s += `${seed}${(row * 7919 + col * 104729 + i * 31) % 1_000_003} `;
  return s.slice(0, CELL_CHARS);
};
const requestRows = (r: number) =>
  Array.from({ length: ROWS_PER_REQUEST }, (_, i) =>
    Object.fromEntries(COLUMNS.map((c, k) => [c, text(r * ROWS_PER_REQUEST + i, k)])),
  );

type Step = { step: string; peak: number; after: number };
const gc = () => (globalThis as { gc?: () => void }).gc?.();

async function step(name: string, run: () => Promise<void>, before: number): Promise<Step> {
  const peak = peakRss();
  await run();
  const top = peak.stop();
  gc();
  return { step: name, peak: top - before, after: process.memoryUsage().rss - before };
}

async function cellwrightSide(): Promise<Step[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-memory-"));
  const rt = await createRuntime(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: process.env.BENCH_DATABASE_URL }), {});
  const { workspace } = await createWorkspace(rt.db.prisma, `bench-${Date.now()}`);
  const base = await inTransaction(rt, (w) =>
    createBase(
      w,
      workspace.id,
      { baseName: "Memory", columns: COLUMNS.map((name, i) => ({ name, type: "long-text", isPrimary: i === 0 })) },
      [],
    ),
  );
  gc();
  const before = process.memoryUsage().rss;
  const steps = [
    await step(
      "add rows",
      async () => {
        for (let r = 0; r < REQUESTS; r++) {
          const rows = requestRows(r).map((cells) => ({ cells }));
          await inTransaction(rt, (w) => addRows(w, workspace.id, base.baseId, { rows }, rt.config.runs));
        }
      },
      before,
    ),
  ];
  steps.push(
    await step(
      "read all (Get Rows, streamed)",
      async () => {
        const reader = await openRowsReader(rt.db.prisma, workspace.id, base.baseId, { expand: true });
        if (reader.kind === "stream") for await (const chunk of reader.chunks) void chunk;
      },
      before,
    ),
    await step(
      "export CSV",
      async () => {
        const file = await openExport(rt.db.prisma, workspace.id, base.baseId, {
          format: "csv",
          metadata: false,
          ids: false,
          bom: false,
          raw: false,
        });
        for await (const chunk of file.chunks) void chunk;
      },
      before,
    ),
  );
  await stopRuntime(rt);
  rmSync(dataDir, { recursive: true, force: true });
  return steps;
}

async function floorSide(): Promise<Step[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-memory-floor-"));
  const rt = await createRuntime(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: process.env.BENCH_DATABASE_URL }), {});
  const exec = (sql: string, params: unknown[] = []) =>
    rt.db.pool ? rt.db.pool.query(sql, params) : rt.db.read(sql, params);
  await exec(`CREATE TABLE bench_rows (id serial PRIMARY KEY, "values" jsonb NOT NULL)`);
  gc();
  const before = process.memoryUsage().rss;
  const steps = [
    await step(
      "floor: the same rows through the driver",
      async () => {
        for (let r = 0; r < REQUESTS; r++) {
          await exec(`INSERT INTO bench_rows ("values") SELECT * FROM jsonb_array_elements($1::jsonb)`, [
            JSON.stringify(requestRows(r)),
          ]);
        }
      },
      before,
    ),
  ];
  await stopRuntime(rt);
  rmSync(dataDir, { recursive: true, force: true });
  return steps;
}

const side = process.argv[process.argv.indexOf("--side") + 1];
if (process.argv.includes("--side")) {
  console.log(JSON.stringify(side === "floor" ? await floorSide() : await cellwrightSide()));
} else {
  const run = (name: string): Step[] => {
    const child = spawnSync(
      process.execPath,
      ["--expose-gc", "--max-semi-space-size=8", ...process.execArgv, import.meta.filename, "--side", name],
      { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], env: process.env },
    );
    if (child.status !== 0) throw new Error(`the ${name} side exited with ${child.status}`);
    return JSON.parse(child.stdout.trim().split("\n").at(-1)!) as Step[];
  };
  const results = [...run("floor"), ...run("cellwright")];
  const vendor = process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite";
  console.log(
    `bench:memory — ${REQUESTS * ROWS_PER_REQUEST} rows × ${COLUMNS.length} cells of ${CELL_CHARS.toLocaleString("en-US")} characters (${TOTAL_MB} MB of text), ${vendor}\n`,
  );
  console.log(
    table([["", "RSS growth at peak", "RSS growth after"], ...results.map((r) => [r.step, mb(r.peak), mb(r.after)])]),
  );
  const add = results.find((r) => r.step === "add rows")!;
  console.log(
    `\ngoal: adding raises RSS by < ${GOAL_MB} MB (${add.peak < GOAL_MB * 1024 * 1024 ? "met" : "missed"}: ${mb(add.peak)} at the peak)`,
  );
  if (vendor === "PGlite")
    console.log(
      "(on PGlite the RSS includes the embedded database's own memory: its buffers grow with the data it holds)",
    );
}
