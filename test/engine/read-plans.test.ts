import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { inTransaction } from "../../lib/db/work.ts";
import { addRows } from "../../lib/domain/rows/write.ts";
import { createCellContextLoader } from "../../lib/engine/cell-context.ts";
import { explainClaim, explaining } from "../support/explain.ts";

// The engine's hot reads test cells by status: the claim, whether a candidate's inputs are still
// open; the context read, which inputs ended in error and which cells of the column are verified
// examples. Without statistics (the embedded database analyzes a table only once a tenth of it
// changed; a large Add Rows leaves the table without them until then) the planner intersected each lookup by key with the status
// index, which lists every cell of that status in every base: 1 ms a candidate at 50,000 open
// cells. Each lookup must go by key alone and test the status on the rows it finds.

const STATUS_INDEX = /cells_status_available_at_idx/;

describe("the engine's reads, planned without statistics", () => {
  let app: TestApp;
  let base: TestBase;
  const claimPlan = async () => (await inTransaction(app.rt, (w) => explainClaim(w.tx))).join("\n");

  beforeAll(async () => {
    app = await createTestApp();
    base = await createBase(app, {
      name: "Plans",
      columns: [
        { name: "Company", isPrimary: true },
        { name: "First", isAiEnabled: true, inputColumns: ["Company"] },
        { name: "Second", isAiEnabled: true, inputColumns: ["First"] },
      ],
    });
    await inTransaction(app.rt, (w) =>
      addRows(
        w,
        app.workspaceA,
        base.baseId,
        { rows: Array.from({ length: 25_000 }, (_, i) => ({ cells: { Company: `Company ${i}` } })) },
        app.rt.config.runs,
      ),
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  it("the claim tests a candidate's inputs by key (50,000 pending cells)", async () => {
    expect(await claimPlan()).not.toMatch(STATUS_INDEX);
  });

  it("the context read finds failed inputs and worked examples by key (error and done cells everywhere)", async () => {
    const { prisma } = app.rt.db;
    await prisma.$executeRawUnsafe(
      `UPDATE cells SET status = CASE WHEN random() < 0.5 THEN 'error' ELSE 'done' END WHERE column_id = $1`,
      base.col.First,
    );
    await prisma.$executeRawUnsafe(
      `UPDATE cells SET status = 'done', verified = true, reviewed_at = now() WHERE column_id = $1 AND row_id IN (SELECT row_id FROM cells WHERE column_id = $1 LIMIT 300)`,
      base.col.Second,
    );
    const cells = await prisma.$queryRawUnsafe<{ row_id: string }[]>(
      `SELECT row_id FROM cells WHERE column_id = $1 AND NOT verified LIMIT 32`,
      base.col.Second,
    );
    const lines: string[] = [];
    const load = createCellContextLoader(
      explaining(prisma, lines, [{ cells: "[]", columns: "[]", examples: "[]" }]),
      "worker-1",
    );
    await Promise.all(
      cells.map((c) =>
        load({ rowId: c.row_id, columnId: base.col.Second, sheetId: base.sheetId, generation: 1, attempts: 0 }),
      ),
    );
    const plan = lines.join("\n");
    expect(plan).toMatch(/cells_verified_column_idx/);
    expect(plan).not.toMatch(STATUS_INDEX);
  });

  it("and the claim, with statistics", async () => {
    await app.rt.db.prisma.$executeRawUnsafe("ANALYZE cells");
    expect(await claimPlan()).not.toMatch(STATUS_INDEX);
  });
});
