// npm run bench:scale — the scale-out queue on PostgreSQL. BENCH_CELLS AI cells (default 8,000)
// against the fake LLM (its own process) at 200 ms latency, per-worker concurrency 16, with each
// worker count of BENCH_WORKERS in turn (default 1,2,4; AI_CONCURRENCY is 16 × the largest, so
// permits never bind). Prints each count's wall time beside its ideal, its speed-up over one
// worker (the target: ≥ 3.6× with 4), and what a claim cost in each worker (each logs its
// claims' p50 and p99 when it stops) beside its floor: the claim must stay flat as workers are
// added. Then the queue engine's own overhead with the model latency at 0: enqueue to start of
// single cells, and the amortised cost of a run on one worker.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../lib/config.ts";
import { createRuntime, stopRuntime, type Runtime } from "../lib/runtime.ts";
import { createWorkspace } from "../lib/workspaces.ts";
import { inTransaction } from "../lib/db/work.ts";
import { createBase } from "../lib/domain/bases.ts";
import { addRows } from "../lib/domain/rows/write.ts";
import { startFakeLlmProcess, secs, table } from "./support.ts";
import { backendPids, cpuMeter } from "./proc-cpu.ts";
import { claimFloor } from "./claim-floor.ts";
import { freshPostgres } from "./rows-floor.ts";

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const CELLS = Number(process.env.BENCH_CELLS ?? 8_000);
const WORKERS = (process.env.BENCH_WORKERS ?? "1,2,4").split(",").map(Number);
const PER_WORKER = 16;
const LATENCY_MS = 200;
const root = path.resolve(import.meta.dirname, "..");

interface Worker {
  child: ChildProcess;
  /** The worker's "cell queue stopped" line, once it has stopped. */
  claims?: { cells: number; count: number; p50: number; p99: number };
}

function startWorker(env: Record<string, string>): Promise<Worker> {
  const child = spawn(process.execPath, ["--import", "tsx", "lib/cli/worker.ts"], {
    cwd: root,
    env: { SECRETS_KEY: "0".repeat(64), ...process.env, ...env }, // required on PostgreSQL; the bench keeps no secret
    stdio: ["ignore", "pipe", "inherit"],
  });
  const worker: Worker = { child };
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      const text = d.toString();
      if (text.includes("worker ready")) resolve(worker);
      const m = /(\d+) cells in (\d+) claims, claim p50 ([\d.]+) ms p99 ([\d.]+) ms/.exec(text);
      if (m) worker.claims = { cells: +m[1], count: +m[2], p50: +m[3], p99: +m[4] };
    });
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

const stopWorker = (w: Worker) =>
  new Promise<void>((resolve) => {
    w.child.once("exit", () => resolve());
    w.child.kill("SIGTERM");
  });

/** A driver runtime (it only writes rows, and their jobs in the same transactions) plus N workers. */
async function setup(workers: number, llmUrl: string) {
  const db = await freshPostgres(ADMIN_URL);
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-scale-"));
  const env = {
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    OPENAI_BASE_URL: llmUrl,
    AI_MODEL: "openai:bench",
    AI_CONCURRENCY: String(PER_WORKER * Math.max(...WORKERS)),
    WORKER_CONCURRENCY: String(PER_WORKER),
    AI_RPM: "0",
  };
  const rt = await createRuntime(loadConfig({ ...env, WORKER_IN_PROCESS: "false" }), { queue: "pg-boss" });
  const children: Worker[] = [];
  for (let i = 0; i < workers; i++) children.push(await startWorker(env));
  const { workspace } = await createWorkspace(rt.db.prisma, "bench");
  const base = await inTransaction(rt, (w) =>
    createBase(
      w,
      workspace.id,
      {
        baseName: "Bench",
        columns: [
          { name: "Company", isPrimary: true },
          { name: "First", isAiEnabled: true, inputColumns: ["Company"] },
        ],
      },
      [],
    ),
  );
  const add = (n: number, from = 0) =>
    inTransaction(rt, (w) =>
      addRows(
        w,
        workspace.id,
        base.baseId,
        { rows: Array.from({ length: n }, (_, i) => ({ cells: { Company: `Company ${from + i}` } })) },
        rt.config.runs,
      ),
    );
  // One statement for every status: the driver's polling is not the engine's work (a Prisma count
  // a status every 100 ms cost it a millisecond of CPU a cell).
  const countSql = `SELECT status, count(*)::int AS n FROM cells WHERE sheet_id = $1 GROUP BY status`;
  const counts = async () => {
    const rows = await rt.db.prisma.$queryRawUnsafe<{ status: string; n: number }[]>(countSql, base.sheet.id);
    return new Map(rows.map((r) => [r.status, r.n]));
  };
  return {
    rt,
    add,
    counts,
    children,
    database: db.name,
    async teardown() {
      for (const c of children) await stopWorker(c);
      await stopRuntime(rt);
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until `n` cells have ended (done or error); a bench that cannot finish says why. */
async function untilDone(counts: () => Promise<Map<string, number>>, n: number, timeoutMs = 600_000, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const c = await counts();
    const [done, error] = [c.get("done") ?? 0, c.get("error") ?? 0];
    if (done + error >= n) {
      if (error > 0) console.error(`bench:scale: ${error} cell(s) ended in error`);
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `bench:scale: cells not finished in time (done ${done}, error ${error}, pending ${c.get("pending") ?? 0}, running ${c.get("running") ?? 0})`,
      );
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * One timed run. Beside its wall time, the CPU that every process of it spent a cell: the workers,
 * the PostgreSQL server's processes for its database, the fake model and this driver (which
 * writes the rows). Their sum against the machine's cores is the ceiling any number of workers
 * runs into.
 */
async function timedRun(workers: number, llm: { baseUrl: string; child: ChildProcess }) {
  const s = await setup(workers, llm.baseUrl);
  const meter = cpuMeter();
  const sample = async () => {
    meter.sample(
      "workers",
      s.children.map((c) => c.child.pid!),
    );
    meter.sample("postgres", await backendPids(ADMIN_URL, s.database));
    meter.sample("model", [llm.child.pid!]);
    meter.sample("driver", [process.pid]);
  };
  let [wall, floor] = [NaN, { p50: NaN, p99: NaN }];
  try {
    await sample();
    const t0 = Date.now();
    const sampler = setInterval(() => void sample().catch(() => undefined), 1_000);
    const floorRun = claimFloor(s.rt.db.prisma, 50);
    await s.add(CELLS);
    await untilDone(s.counts, CELLS).finally(() => clearInterval(sampler));
    wall = Date.now() - t0;
    floor = await floorRun.stop();
    await sample();
  } finally {
    await s.teardown();
  }
  const cpu = meter.totals();
  return { workers, wall, claims: s.children.map((c) => c.claims), cpu, floor };
}

/** Single cells, one after another, on an idle worker: job created → cell started (database clock). */
async function probe(
  rt: Runtime,
  add: (n: number, from: number) => Promise<unknown>,
  counts: () => Promise<Map<string, number>>,
  n: number,
) {
  for (let i = 0; i < n; i++) {
    await add(1, 1_000_000 + i);
    await untilDone(counts, CELLS + i + 1, 30_000, 20);
  }
  const rows = await rt.db.prisma.$queryRawUnsafe<{ ms: number }[]>(
    `SELECT EXTRACT(EPOCH FROM c.started_at - j.created_on) * 1000 AS ms
     FROM cells c JOIN pgboss.job j ON j.singleton_key = c.row_id || '/' || c.column_id || '/' || c.generation || '/' || c.attempts
     JOIN rows r ON r.id = c.row_id
     WHERE r."values"->>(SELECT id FROM columns WHERE name = 'Company' LIMIT 1) LIKE 'Company 1______'
     ORDER BY ms`,
  );
  const ms = rows.map((r) => Number(r.ms));
  return { p50: ms[Math.floor(ms.length / 2)], p95: ms[Math.floor(ms.length * 0.95)] };
}

const llm = await startFakeLlmProcess(["--latency", String(LATENCY_MS)]);
const runs: Awaited<ReturnType<typeof timedRun>>[] = [];
try {
  if (!process.env.BENCH_ONLY_FAST) for (const n of WORKERS) runs.push(await timedRun(n, llm));
} finally {
  await llm.stop();
}

/** The queue's own overhead with the model answering at once (BENCH_SKIP_FAST=1 skips it). */
async function overhead() {
  const fast = await startFakeLlmProcess(["--latency", "0"]);
  try {
    const s = await setup(1, fast.baseUrl);
    try {
      const t0 = Date.now();
      await s.add(CELLS);
      await untilDone(s.counts, CELLS);
      const amortised = (Date.now() - t0) / CELLS;
      return { amortised, single: await probe(s.rt, s.add, s.counts, 50) };
    } finally {
      await s.teardown();
    }
  } finally {
    await fast.stop();
  }
}
const queue = process.env.BENCH_SKIP_FAST === "1" ? undefined : await overhead();

const ideal = (CELLS * LATENCY_MS) / PER_WORKER;
const one = runs.find((r) => r.workers === 1)?.wall ?? NaN;
const range = (xs: number[]) => (xs.length === 0 ? "–" : `${Math.min(...xs)}–${Math.max(...xs)}`);
console.log(
  `\nbench:scale (PostgreSQL + pg-boss, ${CELLS} cells, fake LLM ${LATENCY_MS} ms, ${PER_WORKER} slots per worker)\n`,
);
console.log(
  table([
    [
      "workers",
      "wall",
      "ideal",
      "wall/ideal",
      "speed-up vs 1",
      "cells/worker",
      "claims",
      "claim p50",
      "claim p99",
      "floor",
    ],
    ...runs.map((r) => {
      const c = r.claims.filter((x) => x !== undefined);
      return [
        String(r.workers),
        secs(r.wall),
        secs(ideal / r.workers),
        `${(r.wall / (ideal / r.workers)).toFixed(2)}×`,
        `${(one / r.wall).toFixed(2)}×`,
        range(c.map((x) => x.cells)),
        String(c.reduce((n, x) => n + x.count, 0)),
        `${range(c.map((x) => x.p50))} ms`,
        `${range(c.map((x) => x.p99))} ms`,
        `${r.floor.p50.toFixed(1)} / ${r.floor.p99.toFixed(1)} ms`,
      ];
    }),
  ]),
);
console.log(
  "(target: ≥ 3.6× one worker with 4; claim p50/p99: range across the workers; floor p50/p99: claim-floor.ts)\n",
);
const perCell = (ms: number | undefined) => `${((ms ?? 0) / CELLS).toFixed(2)} ms`;
console.log(
  table([
    ["workers", "CPU a cell: workers", "postgres", "fake model", "driver", "all", "cores busy during the run"],
    ...runs.map((r) => {
      const all = Object.values(r.cpu).reduce((a, b) => a + b, 0);
      return [
        String(r.workers),
        perCell(r.cpu.workers),
        perCell(r.cpu.postgres),
        perCell(r.cpu.model),
        perCell(r.cpu.driver),
        perCell(all),
        `${(all / r.wall).toFixed(2)} of ${availableParallelism()}`,
      ];
    }),
  ]),
);
console.log(
  `load average at the end: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(", ")}\n`,
);
if (queue) {
  console.log(
    `queue overhead, model latency 0: enqueue → start of a single cell p50 ${queue.single.p50.toFixed(1)} ms, p95 ${queue.single.p95.toFixed(1)} ms;`,
  );
  console.log(
    `  ${CELLS} cells on one worker: ${queue.amortised.toFixed(2)} ms per cell end to end (${(1000 / queue.amortised).toFixed(0)} cells/s)`,
  );
}
