import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config.ts";
import { createRuntime, installRuntime, stopRuntime, type Runtime } from "../../lib/runtime.ts";
import { createWorkspace } from "../../lib/workspaces.ts";
import { inTransaction } from "../../lib/db/work.ts";
import { createBase } from "../../lib/domain/bases.ts";
import { addRows, updateRows } from "../../lib/domain/rows/write.ts";
import { dispatch } from "../support/router.ts";

// The embedded database (a data directory, as a server keeps it) runs without PostgreSQL's
// checkpointer and autovacuum: its own maintenance (lib/db/embedded-maintenance.ts) must keep the
// write-ahead log and the table files bounded. Without it, the embedded database hung for good
// once about 540 MB of WAL had been written since it opened (some 250,000 rows). A real
// PostgreSQL does this work itself, so the suite runs on the embedded database only.

const embedded = !process.env.TEST_DATABASE_URL;
if (!embedded)
  console.log("== embedded database volume suite SKIPPED: it tests the embedded database (TEST_DATABASE_URL is set)");

const BATCH = 10_000;
const COLUMNS = [
  { name: "Company", isPrimary: true },
  { name: "Website", type: "url" as const },
  { name: "Notes", type: "long-text" as const },
];
const cells = (tag: string, i: number) => ({
  Company: `Company ${tag}-${i}`,
  Website: `https://c${i}.example`,
  Notes: `Row ${i} ${"n".repeat(40)}`,
});

interface Embedded {
  rt: Runtime;
  workspaceId: string;
  key: string;
  close(): Promise<void>;
}

async function openEmbedded(): Promise<Embedded> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-volume-"));
  const rt = await createRuntime(loadConfig({ DATA_DIR: dataDir }), { queue: "database" });
  const uninstall = installRuntime(rt);
  const { workspace, key } = await createWorkspace(rt.db.prisma, "volume");
  return {
    rt,
    workspaceId: workspace.id,
    key: key.key,
    async close() {
      uninstall();
      await stopRuntime(rt);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const newBase = (e: Embedded, name: string) =>
  inTransaction(e.rt, (w) =>
    createBase(w, e.workspaceId, { baseName: name, columns: COLUMNS.map((c) => ({ ...c })) }, []),
  );
const addBatch = (e: Embedded, baseId: string, tag: string) =>
  inTransaction(e.rt, (w) =>
    addRows(
      w,
      e.workspaceId,
      baseId,
      { rows: Array.from({ length: BATCH }, (_, i) => ({ cells: cells(tag, i) })) },
      e.rt.config.runs,
    ),
  );
const walBytes = async (e: Embedded) =>
  Number((await e.rt.db.read<{ bytes: string }>(`SELECT sum(size)::text AS bytes FROM pg_ls_waldir()`, []))[0].bytes);
const MB = 1024 * 1024;
/** How often rows was vacuumed so far (the flush makes the counters current first). */
const vacuumsOfRows = async (e: Embedded) => {
  await e.rt.db.read("SELECT pg_stat_force_next_flush()", []);
  const [{ n }] = await e.rt.db.read<{ n: number }>(
    `SELECT vacuum_count::int AS n FROM pg_stat_user_tables WHERE relname = 'rows'`,
    [],
  );
  return n;
};

describe.skipIf(!embedded)("the embedded database at 500,000 rows", () => {
  let e: Embedded;
  const wal: number[] = [];
  const seconds: string[] = [];

  beforeAll(async () => {
    e = await openEmbedded();
  });
  afterAll(async () => {
    console.log(
      `embedded volume: pg_wal peak ${(Math.max(...wal) / MB).toFixed(0)} MB; seconds per 10,000 rows: ${seconds.join(" ")}`,
    );
    await e?.close();
  });

  const batch = async (baseId: string, tag: string) => {
    const t0 = performance.now();
    await addBatch(e, baseId, tag);
    seconds.push(((performance.now() - t0) / 1000).toFixed(1));
    wal.push(await walBytes(e));
  };

  it("takes 250,000 rows in 25 new bases and 250,000 into one base, still answers, and keeps pg_wal bounded", async () => {
    for (let b = 0; b < 25; b++) await batch((await newBase(e, `Base ${b}`)).baseId, `b${b}`);
    const big = await newBase(e, "Big");
    for (let b = 0; b < 25; b++) await batch(big.baseId, `big${b}`);

    const [{ n }] = await e.rt.db.read<{ n: number }>(`SELECT count(*)::int AS n FROM rows`, []);
    expect(n).toBe(500_000);
    const res = await dispatch(
      new Request(`http://localhost/api/v1/bases/${big.baseId}/rows?limit=5`, { headers: { "x-api-key": e.key } }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { rows: unknown[] };
    expect(body.rows).toHaveLength(5);
    // Some 800 MB of WAL were written. Unmaintained, pg_wal held every byte of it (and the
    // database hung at 539 MB); checkpoints keep it to what was written since the last one
    // plus the segments kept for reuse.
    expect(Math.max(...wal)).toBeLessThan(320 * MB);
  }, 600_000);
});

describe.skipIf(!embedded)("the embedded database's table files, updated again and again", () => {
  let e: Embedded;
  beforeAll(async () => {
    e = await openEmbedded();
  });
  afterAll(async () => {
    await e?.close();
  });

  it("stays the same size over five rounds of updating every row of a 20,000-row base", async () => {
    const base = await newBase(e, "Updated");
    await addBatch(e, base.baseId, "a");
    await addBatch(e, base.baseId, "b");
    const ids = (
      await e.rt.db.read<{ id: string }>(`SELECT id FROM rows WHERE sheet_id = $1 ORDER BY seq`, [base.sheet.id])
    ).map((r) => r.id);
    expect(ids).toHaveLength(2 * BATCH);
    const sizes: number[] = [];
    for (let round = 1; round <= 5; round++) {
      const vacuumsBefore = await vacuumsOfRows(e);
      for (let from = 0; from < ids.length; from += BATCH) {
        const rows = ids
          .slice(from, from + BATCH)
          .map((id, i) => ({ id, cells: { Notes: `Round ${round} of row ${from + i} ${"u".repeat(40)}` } }));
        const out = await inTransaction(e.rt, (w) =>
          updateRows(w, e.workspaceId, base.baseId, { rows }, e.rt.config.runs),
        );
        expect(out.errors).toEqual([]);
      }
      // What the maintenance's timer does a few seconds later, now, so the rounds are comparable. Its
      // thread runs the timer and the rounds the writes start while the writes go on, so rows may
      // have been vacuumed before this round: once at least, either way.
      await e.rt.db.maintenance!.runNow();
      expect(await vacuumsOfRows(e)).toBeGreaterThan(vacuumsBefore);
      sizes.push(
        Number(
          (await e.rt.db.read<{ bytes: string }>(`SELECT pg_total_relation_size('rows')::text AS bytes`, []))[0].bytes,
        ),
      );
    }
    console.log(`rows' table files after each round: ${sizes.map((s) => (s / MB).toFixed(1)).join(", ")} MB`);
    // Unvacuumed, each round added a whole copy of the rows (round 5 about three times round 1).
    expect(sizes[4]).toBeLessThan(sizes[0] * 1.25);
  }, 300_000);
});
