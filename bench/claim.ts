// npm run bench:claim — the cost of one claim of the embedded queue as the queue grows: the median
// time of claiming 32 cells (then rolled back, so every sample sees the same queue) with 100 to
// 100,000 pending cells in one run, half of them waiting on an input cell. Floor: a primary-key
// lookup of one cell, in the same database at the same moment. BENCH_DATABASE_URL (an admin URL)
// runs it on a fresh PostgreSQL database, dropped afterwards. Goal: flat, the claim's ratio to its
// floor at 100,000 within 1.5× of that at 100 (a ratio, so that the machine's load cancels out).
// Each size also prints whether the claim's plan scans the cells table or walks its indexes, and
// whether it reads the status index (EXPLAIN). The cells table has no statistics, as in the engine.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../lib/config.ts";
import { createRuntime, stopRuntime } from "../lib/runtime.ts";
import { createWorkspace } from "../lib/workspaces.ts";
import { inTransaction } from "../lib/db/work.ts";
import type { Tx } from "../lib/db/database.ts";
import { createBase, deleteBase } from "../lib/domain/bases.ts";
import { addRows } from "../lib/domain/rows/write.ts";
import { claimReadyCells } from "../lib/domain/cells/leases.ts";
import { table } from "./support.ts";
import { explainClaim } from "../test/support/explain.ts";
import { freshPostgres } from "./rows-floor.ts";

const SIZES = [100, 1_000, 10_000, 100_000];
const SAMPLES = 25;
const CLAIM = 32;

class Rollback extends Error {}
type Transacting = Tx & { $transaction: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T> };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs fn in a transaction that is always rolled back; returns fn's duration. */
async function timedRolledBack(prisma: Transacting, fn: (tx: Tx) => Promise<unknown>): Promise<number> {
  let ms = 0;
  await prisma
    .$transaction(async (tx: Tx) => {
      const t0 = performance.now();
      await fn(tx);
      ms = performance.now() - t0;
      throw new Rollback();
    })
    .catch((e: unknown) => {
      if (!(e instanceof Rollback)) throw e;
    });
  return ms;
}

const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-claim-"));
const pgdb = process.env.BENCH_DATABASE_URL ? await freshPostgres(process.env.BENCH_DATABASE_URL) : undefined;
const rt = await createRuntime(
  loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: pgdb?.url,
    OPENAI_BASE_URL: "http://127.0.0.1:9",
    AI_MODEL: "openai:bench",
  }),
);
try {
  const { workspace } = await createWorkspace(rt.db.prisma, `bench-${Date.now()}`);
  const results: (string | number)[][] = [
    ["pending cells", "claim of 32 (median)", "floor: one cell by key", "ratio", "plan"],
  ];
  let atSmallest = 0;
  let atLargest = 0;
  for (const size of SIZES) {
    // One base and one run a size, alone in the database, so that only the queue's length varies.
    const base = await inTransaction(rt, (w) =>
      createBase(
        w,
        workspace.id,
        {
          baseName: `Claim ${size}`,
          columns: [
            { name: "Company", isPrimary: true },
            { name: "First", isAiEnabled: true, inputColumns: ["Company"] },
            { name: "Second", isAiEnabled: true, inputColumns: ["First"] },
          ],
        },
        [],
      ),
    );
    await inTransaction(rt, (w) =>
      addRows(
        w,
        workspace.id,
        base.baseId,
        { rows: Array.from({ length: size / 2 }, (_, i) => ({ cells: { Company: `Company ${i}` } })) },
        rt.config.runs,
      ),
    );
    // Every sample's rolled-back claim leaves dead row versions at the head of the queue's index;
    // vacuumed, each size starts from the same state. Not analyzed here: the embedded database's own
    // maintenance analyzes a table once a tenth of it changed, so claims may run on older statistics.
    await rt.db.prisma.$executeRawUnsafe("VACUUM cells");
    const [{ id: someRow }] = await rt.db.prisma.$queryRawUnsafe<{ id: string }[]>(
      "SELECT id FROM rows ORDER BY seq DESC LIMIT 1",
    );
    const claims: number[] = [];
    const lookups: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const got = { n: 0 };
      claims.push(
        await timedRolledBack(
          rt.db.prisma,
          async (tx) => (got.n = (await claimReadyCells(tx, "bench", CLAIM, 60_000)).length),
        ),
      );
      if (got.n !== Math.min(CLAIM, size / 2)) throw new Error(`claimed ${got.n} cells at ${size} pending`);
      lookups.push(
        await timedRolledBack(rt.db.prisma, (tx) =>
          tx.$queryRawUnsafe(`SELECT * FROM cells WHERE row_id = $1 LIMIT 1`, someRow),
        ),
      );
    }
    const plan = await planOf(rt.db.prisma);
    const claim = median(claims);
    const floor = median(lookups);
    if (size === SIZES[0]) atSmallest = claim / floor;
    atLargest = claim / floor;
    results.push([
      size.toLocaleString("en-US"),
      `${claim.toFixed(2)} ms`,
      `${floor.toFixed(2)} ms`,
      `${(claim / floor).toFixed(1)}×`,
      plan,
    ]);
    await inTransaction(rt, (w) => deleteBase(w, workspace.id, base.baseId));
  }
  const growth = atLargest / atSmallest;
  console.log(
    `\nbench:claim (${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite"}, ${SAMPLES} samples a size)\n`,
  );
  console.log(table(results));
  console.log(
    `\nclaim/floor at ${SIZES.at(-1)!.toLocaleString("en-US")} pending, against at ${SIZES[0]}: ${growth.toFixed(2)}× (goal ≤ 1.5×) ${growth <= 1.5 ? "ok" : "MISSED"}`,
  );
} finally {
  await stopRuntime(rt);
  await pgdb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}

/** Whether the claim's plan reads the cells table whole (a Seq Scan) or through its indexes, and which. */
async function planOf(prisma: Transacting): Promise<string> {
  let plan = "";
  await timedRolledBack(prisma, async (tx) => {
    const lines = await explainClaim(tx);
    const reads = lines.some((l) => /Seq Scan on cells/.test(l)) ? "scans cells" : "index walks only";
    // The status index lists every open cell: a claim that reads it per candidate does not stay flat.
    plan = lines.some((l) => /cells_status_available_at_idx/.test(l)) ? `${reads}, status index` : reads;
  });
  return plan;
}
