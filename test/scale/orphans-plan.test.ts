import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { explaining } from "../support/explain.ts";
import { pgAdminUrl, skipMessage } from "./support.ts";
import { inTransaction } from "../../lib/db/work.ts";
import { addRows } from "../../lib/domain/rows/write.ts";
import { orphanedReadyCells } from "../../lib/jobs/pgboss-jobs.ts";

// The reconciler looks for ready cells without a live job. Right after a large Add Rows the tables
// have no statistics yet, and the planner took the job table for tiny: it compared every ready
// cell with every job (an anti-join filter, 59 s at 25,000 ready cells, past the reconciler's
// transaction timeout, every 15 s). Each cell's job must be looked up by its key in the index.

skipMessage("reconciler plan suite");

describe.skipIf(!pgAdminUrl)("the reconciler's orphan lookup, planned without statistics", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp({}, { queue: "pg-boss" });
    const base = await createBase(app, {
      name: "Orphans",
      columns: [
        { name: "Company", isPrimary: true },
        { name: "First", isAiEnabled: true, inputColumns: ["Company"] },
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
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it("looks each ready cell's job up by key (25,000 ready cells and their jobs)", async () => {
    const lines: string[] = [];
    await app.rt.db.prisma.$transaction((tx) => orphanedReadyCells(explaining(tx as never, lines), 5_000));
    const plan = lines.join("\n");
    expect(plan).toMatch(/Index Cond: \(.*COALESCE\(singleton_key/);
    expect(plan).not.toMatch(/Join Filter: \(COALESCE\(j\.singleton_key/);
  });
});
