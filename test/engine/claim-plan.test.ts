import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { inTransaction } from "../../lib/db/work.ts";
import { addRows } from "../../lib/domain/rows-write.ts";
import { explainClaim } from "../support/explain-claim.ts";

// The embedded queue's claim tests each candidate's inputs. Right after a large Add Rows the
// cells table has no statistics (the embedded database never gathers them on its own), and the
// planner then guessed that the status index, which lists every open cell, narrowed the test:
// 1 ms a candidate at 50,000 open cells. The test must look its inputs up by primary key alone.

/** The claim's plan, from EXPLAIN (the statement is planned, not run). */
const claimPlan = async (app: TestApp) => (await inTransaction(app.rt, (w) => explainClaim(w.tx))).join("\n");

describe("the embedded claim's plan", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp();
    const { baseId } = await createBase(app, {
      name: "Plan",
      columns: [
        { name: "Company", isPrimary: true },
        { name: "First", isAiEnabled: true, inputColumns: ["Company"] },
        { name: "Second", isAiEnabled: true, inputColumns: ["First"] },
      ],
    });
    await inTransaction(app.rt, (w) =>
      addRows(w, app.workspaceA, baseId, { rows: Array.from({ length: 25_000 }, (_, i) => ({ cells: { Company: `Company ${i}` } })) }, app.rt.config.runs),
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  it("tests a candidate's inputs by primary key, without statistics", async () => {
    const plan = await claimPlan(app);
    expect(plan).not.toMatch(/cells_status_available_at_idx/);
  });

  it("and with them", async () => {
    await app.rt.db.prisma.$executeRawUnsafe("ANALYZE cells");
    const plan = await claimPlan(app);
    expect(plan).not.toMatch(/cells_status_available_at_idx/);
  });
});
