// npm run bench:waterfall — BENCH_ROWS rows (default 10,000) through a 3-step waterfall of HTTP
// steps against local providers answering after 20 ms (bench/provider-process.ts): step 1 finds
// half the rows, step 2 half of the rest, step 3 the others. Each host allows BENCH_HOST_CONCURRENCY
// calls at once (default 8); the engine runs BENCH_CONCURRENCY cells at once (default 32), started
// before the rows come, as in a server.
// Prints the wall time, from Add Rows of the rows to the run's end, beside the ideal the host
// limits allow (the busiest host's calls × 20 ms / its concurrency) and beside a floor measured in
// the same run: the same calls, in the same order per row, under the same per-host limits, by
// plain fetch with no database. The floor adds no rows, so the Add Rows is shown alone too, and
// the rest of the wall beside the floor. CPU per row is the process's (the embedded database has a
// thread of its own), then the main thread's alone. The load is the machine's 1-minute load
// average at the start and at the end: a busy machine slows the floor as well.
// Goal: ≤ 1.15× ideal.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { loadConfig } from "../lib/config.ts";
import { createRuntime, stopRuntime } from "../lib/runtime.ts";
import { createWorkspace } from "../lib/workspaces.ts";
import { inTransaction } from "../lib/db/work.ts";
import { createBase } from "../lib/domain/bases.ts";
import { addRows } from "../lib/domain/rows/write.ts";
import { startEngine } from "../lib/engine/engine.ts";
import { mb, peakRss, secs, table, waitForRuns } from "./support.ts";
import { freshPostgres } from "./rows-floor.ts";

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const HOST_CONCURRENCY = Number(process.env.BENCH_HOST_CONCURRENCY ?? 8);
const LATENCY_MS = 20;
const STEPS = ["s1", "s2", "s3"] as const;
/** Calls each step's host gets: every row asks s1, half ask s2, a quarter ask s3. */
const calls = { s1: ROWS, s2: Math.ceil(ROWS / 2), s3: Math.ceil(ROWS / 4) };

async function startProviders() {
  const child = spawn(process.execPath, ["bench/provider-process.ts", "--latency", String(LATENCY_MS)], {
    cwd: path.resolve(import.meta.dirname, ".."),
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
  return { urls: JSON.parse(line) as Record<(typeof STEPS)[number], string>, stop: () => child.kill("SIGTERM") };
}

/** The floor: each row's calls in order, CONCURRENCY rows at once, HOST_CONCURRENCY calls per host. */
async function floor(urls: Record<string, string>): Promise<number> {
  const slots = Object.fromEntries(STEPS.map((s) => [s, { active: 0, waiting: [] as (() => void)[] }]));
  const call = async (step: string, i: number) => {
    const slot = slots[step];
    while (slot.active >= HOST_CONCURRENCY) await new Promise<void>((r) => slot.waiting.push(r));
    slot.active++;
    try {
      const res = await fetch(`${urls[step]}/find?i=${i}`);
      await res.text();
      return res.status === 200;
    } finally {
      slot.active--;
      slot.waiting.shift()?.();
    }
  };
  let next = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < ROWS; i = next++) for (const step of STEPS) if (await call(step, i)) break;
    }),
  );
  return Date.now() - t0;
}

async function run() {
  const load0 = loadavg()[0];
  const providers = await startProviders();
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-waterfall-"));
  const pgdb = process.env.BENCH_DATABASE_URL ? await freshPostgres(process.env.BENCH_DATABASE_URL) : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: pgdb?.url,
    AI_CONCURRENCY: String(CONCURRENCY),
    ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
    ...(pgdb ? { SECRETS_KEY: "0".repeat(64) } : {}),
  });
  const rt = await createRuntime(config);
  const { workspace } = await createWorkspace(rt.db.prisma, `bench-${Date.now()}`);
  const step = (s: string) => ({
    kind: "http" as const,
    label: s,
    request: { method: "GET" as const, url: `${providers.urls[s as "s1"]}/find?i={{Row}}` },
    extract: "email",
    cacheTtlSeconds: 0,
    retries: 0,
    rateLimit: { concurrency: HOST_CONCURRENCY, perMinute: 100_000 },
  });
  const base = await inTransaction(rt, (w) =>
    createBase(
      w,
      workspace.id,
      {
        baseName: "Bench",
        columns: [
          { name: "Row", isPrimary: true },
          { name: "Email", fill: { kind: "waterfall", steps: STEPS.map(step) } },
        ],
      },
      [],
    ),
  );
  // Running before the rows come, as in a server: the Add Rows' commit wakes it.
  await startEngine(rt);
  const rss = peakRss();
  const cpu0 = process.cpuUsage();
  const main0 = process.threadCpuUsage();
  const t0 = Date.now();
  await inTransaction(rt, (w) =>
    addRows(
      w,
      workspace.id,
      base.baseId,
      { rows: Array.from({ length: ROWS }, (_, i) => ({ cells: { Row: String(i) } })) },
      rt.config.runs,
    ),
  );
  const adding = Date.now() - t0;
  await waitForRuns(rt, base.baseId, "bench:waterfall");
  const wall = Date.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const main = process.threadCpuUsage(main0);
  const peak = rss.stop();
  const statuses = await rt.db.prisma.$queryRawUnsafe<{ status: string; n: number }[]>(
    `SELECT status || coalesce(' ' || error_code, '') AS status, count(*)::int AS n FROM cells WHERE sheet_id = $1 GROUP BY 1 ORDER BY 1`,
    base.sheet.id,
  );
  await stopRuntime(rt);
  await pgdb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
  const bare = await floor(providers.urls);
  providers.stop();
  const ideal = (Math.max(...Object.values(calls)) * LATENCY_MS) / HOST_CONCURRENCY;
  return [
    ROWS,
    Object.values(calls).reduce((a, b) => a + b, 0),
    secs(wall),
    secs(adding),
    secs(ideal),
    `${(wall / ideal).toFixed(2)}×`,
    secs(bare),
    `${(bare / ideal).toFixed(2)}×`,
    `${(wall / bare).toFixed(2)}×`,
    `${((wall - adding) / bare).toFixed(2)}×`,
    `${((cpu.user + cpu.system) / 1000 / ROWS).toFixed(2)} ms`,
    `${((main.user + main.system) / 1000 / ROWS).toFixed(2)} ms`,
    mb(peak),
    `${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`,
    statuses.map((s) => `${s.status} ${s.n}`).join(", "),
  ];
}

const header = [
  "rows",
  "calls",
  "wall",
  "of it adding rows",
  "ideal",
  "wall/ideal",
  "floor (fetch)",
  "floor/ideal",
  "wall/floor",
  "after adding/floor",
  "CPU/row",
  "main thread",
  "peak RSS",
  "load",
  "cells",
];
const result = await run();
console.log(
  `\nbench:waterfall (${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite"}, 3 steps at ${LATENCY_MS} ms, ${HOST_CONCURRENCY} calls per host, ${CONCURRENCY} cells at once; goal: wall ≤ 1.15× ideal)\n`,
);
console.log(table([header, result]));
