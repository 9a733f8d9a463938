import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { addRows } from "./helpers.ts";
import { inTransaction } from "../../lib/db/work.ts";
import { claimListedCells, countLiveLeases, type CellRef } from "../../lib/domain/cells/index.ts";

// The global cap of the scale-out queue counts cells running under a live lease, less the cells
// whose model call has answered and whose value is being stored: those call the model no more,
// so a claim may take their place while they are written.

describe("the global concurrency cap", () => {
  let app: TestApp;
  let cells: CellRef[];

  beforeAll(async () => {
    app = await createTestApp();
    const { baseId, col } = await createBase(app, {
      name: "Cap",
      columns: [
        { name: "Company", isPrimary: true },
        { name: "Summary", isAiEnabled: true, inputColumns: ["Company"] },
      ],
    });
    const rows = await addRows(app, baseId, [{ Company: "A" }, { Company: "B" }, { Company: "C" }]);
    cells = rows.map((r) => ({ rowId: r.id, columnId: col.Summary }));
  });
  afterAll(async () => {
    await app?.close();
  });

  const claim = (cell: CellRef, cap: number, answered: CellRef[] = []) =>
    inTransaction(app.rt, async (w) => (await claimListedCells(w.tx, [cell], "worker-1", 60_000, cap, answered))[0].claimed);

  it("holds a claim back at the cap, and lets it through in the place of an answered cell", async () => {
    const [a, b, c] = cells;
    expect(await claim(a, 1)).toBe(true);
    expect(await countLiveLeases(app.rt.db.prisma)).toBe(1);
    // At the cap: b waits.
    expect(await claim(b, 1)).toBe(false);
    // a has answered and is being stored: it no longer counts, so b takes its place.
    expect(await countLiveLeases(app.rt.db.prisma, [a])).toBe(0);
    expect(await claim(b, 1, [a])).toBe(true);
    // Only the answered cells listed are left out of the count: b is running, so c still waits.
    expect(await countLiveLeases(app.rt.db.prisma, [a])).toBe(1);
    expect(await claim(c, 1, [a])).toBe(false);
    expect(await countLiveLeases(app.rt.db.prisma)).toBe(2);
  });
});
