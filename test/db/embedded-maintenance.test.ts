import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { EventBus } from "../../lib/events.ts";
import { maintainEmbedded, watchWrites, type EmbeddedMaintenance } from "../../lib/db/embedded-maintenance.ts";

// The embedded database's own checkpoints and vacuums (the 500,000-row proof is
// test/scale/embedded-volume.test.ts). A PGlite of its own, whichever database the suites run on.

const HOUR = 3_600_000;
const settings = {
  tickMs: HOUR,
  checkpointAfterBytes: 4 * 1024 * 1024,
  checkpointEveryMs: HOUR,
  roundAfterRows: 1_000,
  lullMs: 100,
  maxDeferMs: HOUR,
};

describe("the embedded database's maintenance", () => {
  let pglite: PGlite;
  let maintenance: EmbeddedMaintenance;
  const walSinceCheckpoint = async () =>
    Number(
      (
        await pglite.query<{ b: string }>(
          `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::text AS b FROM pg_control_checkpoint()`,
        )
      ).rows[0].b,
    );
  const deadRows = async () => {
    await pglite.query(`SELECT pg_stat_force_next_flush()`); // counters are published when the backend goes idle
    return Number(
      (await pglite.query<{ n: string }>(`SELECT n_dead_tup::text AS n FROM pg_stat_user_tables WHERE relname = 't'`))
        .rows[0].n,
    );
  };

  beforeEach(async () => {
    pglite = new PGlite();
    await pglite.exec(`CREATE TABLE t (id int PRIMARY KEY, v text); CREATE TABLE quiet (id int PRIMARY KEY)`);
    await pglite.exec(`INSERT INTO quiet VALUES (1)`);
    maintenance = maintainEmbedded(pglite, settings);
    await maintenance.runNow();
  });
  afterEach(async () => {
    await maintenance.stop();
    await pglite.close();
  });

  it("checkpoints once the WAL since the last checkpoint passes its size, and not before", async () => {
    await pglite.exec(`INSERT INTO t SELECT g, repeat('x', 100) FROM generate_series(1, 1000) g`);
    expect(await walSinceCheckpoint()).toBeLessThan(settings.checkpointAfterBytes);
    expect((await maintenance.runNow()).checkpoint).toBe(false);

    await pglite.exec(`INSERT INTO t SELECT g, repeat('x', 100) FROM generate_series(1001, 60000) g`);
    expect(await walSinceCheckpoint()).toBeGreaterThan(settings.checkpointAfterBytes);
    expect((await maintenance.runNow()).checkpoint).toBe(true);
    expect(await walSinceCheckpoint()).toBeLessThan(64 * 1024);
  });

  it("vacuums and analyzes only the tables past autovacuum's thresholds", async () => {
    await pglite.exec(`INSERT INTO t SELECT g, 'a' FROM generate_series(1, 10000) g`);
    // Inserts only: changed rows past 10%, no dead rows.
    expect(await maintenance.runNow()).toMatchObject({ vacuumed: [], analyzed: ["t"] });
    await pglite.exec(`UPDATE t SET v = 'b' WHERE id <= 1000`); // 1,000 dead rows: under 50 + 20%
    expect((await maintenance.runNow()).vacuumed).toEqual([]);
    await pglite.exec(`UPDATE t SET v = 'c'`);
    expect(await deadRows()).toBeGreaterThan(2_050);
    expect((await maintenance.runNow()).vacuumed).toEqual(["t"]);
    expect(await deadRows()).toBe(0);
    expect(await maintenance.runNow()).toMatchObject({ vacuumed: [], analyzed: [] });
  });

  it("starts a round once enough rows were written, as the bus reports them", async () => {
    await pglite.exec(`INSERT INTO t SELECT g, 'a' FROM generate_series(1, 5000) g`);
    const bus = new EventBus();
    const watch = watchWrites({ maintenance }, bus);
    const rows = (n: number) => ({
      type: "rows.changed" as const,
      workspaceId: "w",
      baseId: "b",
      rowIds: Array.from({ length: n }, (_, i) => `r${i}`),
      kind: "added" as const,
    });
    bus.emit([rows(600)]);
    await new Promise((r) => setTimeout(r, 50));
    expect(
      (await pglite.query(`SELECT 1 FROM pg_stat_user_tables WHERE relname = 't' AND last_analyze IS NOT NULL`)).rows,
    ).toHaveLength(0);
    bus.emit([rows(600)]);
    await expect
      .poll(
        async () =>
          (await pglite.query(`SELECT 1 FROM pg_stat_user_tables WHERE relname = 't' AND last_analyze IS NOT NULL`))
            .rows.length,
      )
      .toBe(1);
    await watch.stop();
  });

  it("waits for a lull to vacuum and analyze, or until it has waited too long; a checkpoint past its WAL size never waits", async () => {
    let busy = true;
    const analyzed = async () =>
      (await pglite.query(`SELECT 1 FROM pg_stat_user_tables WHERE relname = 't' AND last_analyze IS NOT NULL`)).rows
        .length;
    const waiting = maintainEmbedded(pglite, { ...settings, maxDeferMs: 1_500 }, () => (busy ? 0 : 1_000));
    try {
      await pglite.exec(`INSERT INTO t SELECT g, repeat('x', 100) FROM generate_series(1, 60000) g`);
      waiting.noteWrites(2_000);
      // Busy: the WAL's checkpoint runs at once, the analyze waits.
      await expect.poll(walSinceCheckpoint).toBeLessThan(64 * 1024);
      await new Promise((r) => setTimeout(r, 500));
      expect(await analyzed()).toBe(0);
      // Still busy, it runs once it has waited maxDeferMs.
      await expect.poll(analyzed, { timeout: 5_000 }).toBe(1);

      await pglite.exec(`UPDATE t SET v = 'y'`);
      waiting.noteWrites(2_000);
      await new Promise((r) => setTimeout(r, 500));
      expect(await deadRows()).toBeGreaterThan(50_000);
      // A lull: the vacuum runs in it, long before maxDeferMs.
      busy = false;
      await expect.poll(deadRows, { timeout: 1_000 }).toBe(0);
    } finally {
      await waiting.stop();
    }
  });
});
