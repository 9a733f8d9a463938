import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { pruneOnce } from "../../lib/retention.ts";
import { appendHistory } from "../../lib/domain/history/append.ts";
import { historyOf } from "./helpers.ts";

// Retention of cell history: changes older than HISTORY_RETENTION_DAYS go, the rest of the cell's
// history stays in order, and a history left empty goes too.

const DAY = 86_400_000;
let app: TestApp;
let base: TestBase;

beforeAll(async () => {
  app = await createTestApp({ HISTORY_RETENTION_DAYS: "30" });
  base = await createBase(app, { columns: [{ name: "Company", isPrimary: true }, { name: "Note" }] });
});
afterAll(() => app.close());

it("drops changes past the retention period, keeping the newer ones of the same cell", async () => {
  const { rows } = (
    await app.api("POST", `/api/v1/bases/${base.baseId}/add-rows`, {
      body: { rows: [{ cells: { Company: "Acme", Note: "a" } }, { cells: { Company: "Globex", Note: "x" } }] },
    })
  ).body;
  const [acme, globex] = rows.map((r: { id: string }) => r.id);
  const change = (rowId: string, before: string, after: string) => ({
    rowId,
    columnId: base.col.Note,
    kind: "edit" as const,
    before: { value: before },
    after: { value: after },
  });
  await appendHistory(
    app.rt.db.prisma,
    base.baseId,
    [change(acme, "a", "b"), change(globex, "x", "y")],
    new Date(Date.now() - 40 * DAY),
  );
  await appendHistory(app.rt.db.prisma, base.baseId, [change(acme, "b", "c")], new Date(Date.now() - 10 * DAY));

  const counts = await pruneOnce(app.rt);
  expect(counts.cellHistories).toBe(2);
  expect((await historyOf(app, base, acme)).map((e) => [e.before.value, e.after.value])).toEqual([["b", "c"]]);
  expect(await historyOf(app, base, globex)).toEqual([]);
  const [{ n }] = await app.rt.db.prisma.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM cell_history WHERE base_id = $1`,
    base.baseId,
  );
  expect(n).toBe(1);
  // Nothing left to prune: a second pass changes nothing.
  expect((await pruneOnce(app.rt)).cellHistories).toBe(0);
});
