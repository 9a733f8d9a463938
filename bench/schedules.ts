// npm run bench:schedules — the scheduler's tick accuracy: how late after its due time a tick
// starts its claim, with the scheduler as boot starts it (real clock, real timers), beside a floor:
// a bare setTimeout set for the same due times, in the same process and run. Each of TICKS
// schedules gets one due time, SPACING_MS apart, set straight in the table (the API keeps ticks an
// hour apart). Ticks find no generated column to refresh, so each is a claim and an empty
// execution: the part of a tick the scheduler owns. On PGlite in a temporary DATA_DIR, and on
// PostgreSQL when BENCH_DATABASE_URL (default 127.0.0.1:5432) answers.
//   BENCH_SCHEDULE_TICKS (default 60) and BENCH_SCHEDULE_SPACING_MS (default 150).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { randomBytes } from "node:crypto";
import { loadConfig } from "../lib/config.ts";
import { createRuntime, stopRuntime } from "../lib/runtime.ts";
import { inTransaction } from "../lib/db/work.ts";
import { createWorkspace } from "../lib/workspaces.ts";
import { createBase } from "../lib/domain/bases.ts";
import { createSchedule } from "../lib/domain/schedules/index.ts";
import { startScheduler } from "../lib/engine/scheduler.ts";
import { table } from "./support.ts";

const TICKS = Number(process.env.BENCH_SCHEDULE_TICKS ?? 60);
const SPACING_MS = Number(process.env.BENCH_SCHEDULE_SPACING_MS ?? 150);
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)];
const ms = (x: number) => `${x.toFixed(1)} ms`;

/** How late a bare setTimeout fires for each of these due times. */
function timerFloor(dues: number[]): Promise<number[]> {
  return Promise.all(
    dues.map((due) => new Promise<number>((r) => setTimeout(() => r(Date.now() - due), due - Date.now()))),
  );
}

async function measure(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-schedules-"));
  const rt = await createRuntime(loadConfig({ DATA_DIR: dataDir, ...env }), { queue: "database" });
  try {
    const { workspace } = await createWorkspace(rt.db.prisma, `bench-${Date.now()}`);
    const ids: string[] = [];
    let baseId = "";
    for (let i = 0; i < TICKS; i++) {
      // A base holds at most 50 schedules.
      if (i % 50 === 0) {
        const columns = [{ name: "Name" }];
        baseId = (await inTransaction(rt, (w) => createBase(w, workspace.id, { baseName: `Ticks ${i}`, columns }, [])))
          .baseId;
      }
      const s = await inTransaction(rt, (w) =>
        createSchedule(w, workspace.id, baseId, { name: `T${i}`, every: "1d" }, new Date()),
      );
      ids.push(s.id);
    }
    const start = Date.now() + 1_000;
    const dues = ids.map((_, i) => start + i * SPACING_MS);
    for (const [i, id] of ids.entries())
      await rt.db.prisma.schedule.update({ where: { id }, data: { nextRunAt: new Date(dues[i]) } });
    const late: number[] = [];
    const scheduler = startScheduler(rt, { onTick: (t) => t.execution && late.push(t.startedAt - t.dueAt.getTime()) });
    // The scheduler reads the new times when told, as an API change tells it.
    rt.bus.emit({ type: "schedules.changed" });
    const floor = await timerFloor(dues);
    while (late.length < TICKS && Date.now() < dues[dues.length - 1] + 30_000)
      await new Promise((r) => setTimeout(r, 50));
    await scheduler.stop();
    return { late, floor };
  } finally {
    await stopRuntime(rt);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgres(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 1_000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `cw_bench_sched_${randomBytes(4).toString("hex")}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

const rows: (string | number)[][] = [
  ["database", "ticks", "late p50", "late p95", "late max", "setTimeout p50", "p95"],
];
const add = (label: string, r: { late: number[]; floor: number[] }) =>
  rows.push([
    label,
    r.late.length,
    ms(quantile(r.late, 0.5)),
    ms(quantile(r.late, 0.95)),
    ms(Math.max(...r.late)),
    ms(quantile(r.floor, 0.5)),
    ms(quantile(r.floor, 0.95)),
  ]);

add("PGlite", await measure({}));
const db = await postgres();
if (db) {
  try {
    add("PostgreSQL", await measure({ DATABASE_URL: db.url }));
  } finally {
    await db.drop();
  }
} else console.log(`PostgreSQL at ${PG_URL} does not answer: PGlite only.`);
console.log(`bench:schedules, ${TICKS} ticks ${SPACING_MS} ms apart: lateness of a tick's start after its due time`);
console.log(table(rows));
