// npm run bench:scale — the scale-out queue on PostgreSQL. 4,000 AI cells against the fake LLM
// (its own process) at 200 ms latency, per-worker concurrency 16: one worker, then two. Prints
// the wall times and their ratio (target ≥ 1.8×), then the queue engine's own overhead with the
// model latency at 0: enqueue to start of single cells, and the amortised cost of a 4,000-cell run.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { loadConfig } from "../lib/config.ts";
import { createRuntime, stopRuntime, type Runtime } from "../lib/runtime.ts";
import { createWorkspace } from "../lib/workspaces.ts";
import { inTransaction } from "../lib/db/work.ts";
import { createBase } from "../lib/domain/bases.ts";
import { addRows } from "../lib/domain/rows/write.ts";
import { startFakeLlmProcess, secs, table } from "./support.ts";

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const CELLS = Number(process.env.BENCH_CELLS ?? 4_000);
const PER_WORKER = 16;
const root = path.resolve(import.meta.dirname, "..");

async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `cw_bench_scale_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "lib/cli/worker.ts"], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("worker ready") && resolve(child));
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

const stopWorker = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });

/** A driver runtime (it only writes rows, and their jobs in the same transactions) plus N workers. */
async function setup(workers: number, llmUrl: string) {
  const db = await freshDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-scale-"));
  const env = {
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    OPENAI_BASE_URL: llmUrl,
    AI_MODEL: "openai:bench",
    AI_CONCURRENCY: "64",
    WORKER_CONCURRENCY: String(PER_WORKER),
    AI_RPM: "0",
  };
  const rt = await createRuntime(loadConfig({ ...env, WORKER_IN_PROCESS: "false" }), { queue: "pg-boss" });
  const children: ChildProcess[] = [];
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
  const count = async (status: string) => rt.db.prisma.cell.count({ where: { sheetId: base.sheet.id, status } });
  return {
    rt,
    add,
    count,
    async teardown() {
      for (const c of children) await stopWorker(c);
      await stopRuntime(rt);
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until `n` cells have ended (done or error); a bench that cannot finish says why. */
async function untilDone(count: (s: string) => Promise<number>, n: number, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [done, error] = [await count("done"), await count("error")];
    if (done + error >= n) {
      if (error > 0) console.error(`bench:scale: ${error} cell(s) ended in error`);
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `bench:scale: cells not finished in time (done ${done}, error ${error}, pending ${await count("pending")}, running ${await count("running")})`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function timedRun(workers: number, llmUrl: string): Promise<number> {
  const s = await setup(workers, llmUrl);
  try {
    const t0 = Date.now();
    await s.add(CELLS);
    await untilDone(s.count, CELLS);
    return Date.now() - t0;
  } finally {
    await s.teardown();
  }
}

/** Single cells, one after another, on an idle worker: job created → cell started (database clock). */
async function probe(
  rt: Runtime,
  add: (n: number, from: number) => Promise<unknown>,
  count: (s: string) => Promise<number>,
  n: number,
) {
  for (let i = 0; i < n; i++) {
    await add(1, 1_000_000 + i);
    await untilDone(count, CELLS + i + 1, 30_000);
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

const llm = await startFakeLlmProcess(["--latency", "200"]);
let one = NaN;
let two = NaN;
try {
  if (!process.env.BENCH_ONLY_FAST) {
    one = await timedRun(1, llm.baseUrl);
    two = await timedRun(2, llm.baseUrl);
  }
} finally {
  await llm.stop();
}

const fast = await startFakeLlmProcess(["--latency", "0"]);
let amortised: number;
let single: { p50: number; p95: number };
try {
  const s = await setup(1, fast.baseUrl);
  try {
    const t0 = Date.now();
    await s.add(CELLS);
    await untilDone(s.count, CELLS);
    amortised = (Date.now() - t0) / CELLS;
    single = await probe(s.rt, s.add, s.count, 50);
  } finally {
    await s.teardown();
  }
} finally {
  await fast.stop();
}

const ideal = (CELLS * 200) / PER_WORKER;
console.log(`\nbench:scale (PostgreSQL + pg-boss, ${CELLS} cells, fake LLM 200 ms, ${PER_WORKER} slots per worker)\n`);
console.log(
  table([
    ["workers", "wall", "ideal", "wall/ideal"],
    ["1", secs(one), secs(ideal), `${(one / ideal).toFixed(2)}×`],
    ["2", secs(two), secs(ideal / 2), `${(two / (ideal / 2)).toFixed(2)}×`],
  ]),
);
console.log(`\nspeed-up with 2 workers: ${(one / two).toFixed(2)}× (target ≥ 1.8×)`);
console.log(
  `queue overhead, model latency 0: enqueue → start of a single cell p50 ${single.p50.toFixed(1)} ms, p95 ${single.p95.toFixed(1)} ms;`,
);
console.log(
  `  ${CELLS} cells on one worker: ${amortised.toFixed(2)} ms per cell end to end (${(1000 / amortised).toFixed(0)} cells/s)`,
);
