// npm run bench:claim-contention — pg-boss claims side by side on PostgreSQL, without the workers
// around them: 1 and then BENCH_CLAIMERS (default 4) claimers in this process, each claiming 8 cells
// at a time, BENCH_CLAIMS claims each (default 60), on a fresh base of queued cells per pass, with
// the run uncapped and then capped (a budget far from binding, so that only the capped path's lock
// shows). Floor: a transaction of as many round trips (begin, three trivial statements, commit),
// timed in a loop beside the claimers during the same pass. A claim that takes turns under a lock
// grows with its claimers; one that does not stays level with its floor. BENCH_DATABASE_URL (an
// admin URL, default the local server) gets a fresh database, dropped afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../lib/config.ts";
import { createRuntime, stopRuntime, type Runtime } from "../lib/runtime.ts";
import { createWorkspace } from "../lib/workspaces.ts";
import { inTransaction } from "../lib/db/work.ts";
import { createBase } from "../lib/domain/bases.ts";
import { addRows } from "../lib/domain/rows/write.ts";
import { claimJobs } from "../lib/jobs/pgboss-claim.ts";
import { table } from "./support.ts";
import { freshPostgres } from "./rows-floor.ts";
import { claimFloor, percentiles } from "./claim-floor.ts";

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const CLAIMERS = Number(process.env.BENCH_CLAIMERS ?? 4);
const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 60);
const BATCH = 8;

async function queuedBase(rt: Runtime, workspaceId: string, name: string, cells: number, capped: boolean) {
  const base = await inTransaction(rt, (w) =>
    createBase(
      w,
      workspaceId,
      {
        baseName: name,
        columns: [
          { name: "Company", isPrimary: true },
          { name: "First", isAiEnabled: true, inputColumns: ["Company"] },
        ],
      },
      [],
    ),
  );
  await inTransaction(rt, (w) =>
    addRows(
      w,
      workspaceId,
      base.baseId,
      { rows: Array.from({ length: cells }, (_, i) => ({ cells: { Company: `${name} ${i}` } })) },
      rt.config.runs,
    ),
  );
  if (capped)
    await rt.db.prisma.$executeRawUnsafe(
      `UPDATE runs SET max_credits = 1000000000 WHERE base_id = $1 AND status = 'running'`,
      base.baseId,
    );
}

async function pass(rt: Runtime, workspaceId: string, claimers: number, capped: boolean) {
  await queuedBase(rt, workspaceId, `Pass ${claimers} ${capped}`, claimers * CLAIMS * BATCH, capped);
  const jobs = rt.queue.jobs!;
  const times: number[] = [];
  const floorRun = claimFloor(rt.db.prisma, 20);
  let cells = 0;
  await Promise.all(
    Array.from({ length: claimers }, async (_, i) => {
      for (let n = 0; n < CLAIMS; n++) {
        const t0 = performance.now();
        const r = await claimJobs(rt.db.prisma, jobs, `claimer-${claimers}-${capped}-${i}`, BATCH, 600_000);
        times.push(performance.now() - t0);
        cells += r.claimed.length;
      }
    }),
  );
  return { claimers, capped, cells, claim: percentiles(times), floor: await floorRun.stop(), claims: times.length };
}

const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-claim-contention-"));
const db = await freshPostgres(ADMIN_URL);
const rt = await createRuntime(
  loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    OPENAI_BASE_URL: "http://127.0.0.1:9",
    AI_MODEL: "openai:bench",
    WORKER_IN_PROCESS: "false",
  }),
  { queue: "pg-boss" },
);
try {
  const { workspace } = await createWorkspace(rt.db.prisma, "bench");
  const rows: (string | number)[][] = [
    ["run", "claimers", "claims", "cells", "claim p50", "claim p99", "floor p50", "floor p99", "p50 ÷ floor"],
  ];
  for (const capped of [false, true]) {
    for (const n of [1, CLAIMERS]) {
      const r = await pass(rt, workspace.id, n, capped);
      const [p50, p99, f50, f99] = [r.claim.p50, r.claim.p99, r.floor.p50, r.floor.p99];
      rows.push([
        capped ? "capped" : "uncapped",
        n,
        r.claims,
        r.cells,
        `${p50.toFixed(1)} ms`,
        `${p99.toFixed(1)} ms`,
        `${f50.toFixed(1)} ms`,
        `${f99.toFixed(1)} ms`,
        `${(p50 / f50).toFixed(2)}×`,
      ]);
    }
  }
  console.log(`\nbench:claim-contention (PostgreSQL + pg-boss, claims of ${BATCH}, ${CLAIMS} a claimer)\n`);
  console.log(table(rows));
  console.log(
    `load average at the end: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(", ")}`,
  );
} finally {
  await stopRuntime(rt);
  await db.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
