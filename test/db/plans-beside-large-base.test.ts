import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { explainClaim } from "../support/explain.ts";
import { waitFor } from "../support/wait.ts";
import type { Tx } from "../../lib/db/database.ts";
import { inTransaction, type Work } from "../../lib/db/work.ts";
import { addRows, updateRows } from "../../lib/domain/rows/write.ts";
import { queryRows } from "../../lib/domain/rows/query.ts";
import { searchIndexName } from "../../lib/db/sheet-indexes.ts";

// A small base's writes and reads, in a database that also holds a large base and many small
// ones, and whose statistics predate the small one (the embedded database analyzes only now and
// then). Every statement must reach the small base's rows and cells through their indexes: a Seq
// Scan of rows or cells would read the other bases' 40,000 rows too, and grow with every base in
// the database. Only the large base has a typed column's index and a search index (sheet-indexes.ts), so the many
// small bases add nothing to what each write checks and each plan considers.

const LARGE = 40_000;
const MANY = 150;
const COLUMNS = [
  { name: "Company", isPrimary: true },
  { name: "Employees", type: "number" },
  { name: "Summary", isAiEnabled: true, inputColumns: ["Company"] },
];
const SCANS_OTHER_BASES = /Seq Scan on (rows|cells)\b/;

/** Each raw statement is planned (EXPLAIN, which runs nothing) and then run as it was asked. */
function planning<T extends Tx>(tx: T, plans: { sql: string; plan: string }[]): T {
  const explain = async (sql: string, args: unknown[]) => {
    if (!/^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(sql)) return;
    const out = await tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN ${sql}`, ...args);
    plans.push({ sql: sql.replace(/\s+/g, " ").slice(0, 160), plan: out.map((r) => r["QUERY PLAN"]).join("\n") });
  };
  return new Proxy(tx, {
    get(target, prop, receiver) {
      if (prop !== "$queryRawUnsafe" && prop !== "$executeRawUnsafe") return Reflect.get(target, prop, receiver);
      const real = Reflect.get(target, prop, receiver) as (sql: string, ...args: unknown[]) => Promise<unknown>;
      return async (sql: string, ...args: unknown[]) => {
        await explain(sql, args);
        return real.call(target, sql, ...args);
      };
    },
  });
}

const scans = (plans: { sql: string; plan: string }[]) =>
  plans.filter((p) => SCANS_OTHER_BASES.test(p.plan)).map((p) => `${p.sql}\n${p.plan}`);

describe("plans of a small base's statements beside a large base, without fresh statistics", () => {
  let app: TestApp;
  let small: TestBase;
  let rowIds: string[];
  let largeEmployees: string;
  let largeBaseId: string;
  let largeSheetId: string;

  beforeAll(async () => {
    app = await createTestApp();
    const large = await createBase(app, { name: "Large", columns: COLUMNS });
    largeEmployees = large.col.Employees;
    largeBaseId = large.baseId;
    for (let from = 0; from < LARGE; from += 10_000) {
      const rows = Array.from({ length: 10_000 }, (_, i) => ({
        cells: { Company: `Large ${from + i}`, Employees: String(i) },
      }));
      await inTransaction(app.rt, (w) => addRows(w, app.workspaceA, large.baseId, { rows }, app.rt.config.runs));
    }
    // Past 20,000 rows the number column gets its index, in the background (sheet-indexes.ts).
    await indexBuilt(large.col.Employees);
    largeSheetId = (
      await app.rt.db.prisma.$queryRawUnsafe<{ id: string }[]>(`SELECT id FROM sheets WHERE base_id = $1`, largeBaseId)
    )[0].id;
    await indexBuilt(null, searchIndexName(largeSheetId));
    await app.rt.db.prisma.$executeRawUnsafe("ANALYZE");
    // From here on the statistics describe the large base only.
    await app.rt.db.maintenance?.stop();
    for (let i = 0; i < MANY; i++) {
      const other = await createBase(app, { name: `Other ${i}`, columns: COLUMNS });
      const rows = Array.from({ length: 20 }, (_, j) => ({ cells: { Company: `Other ${j}`, Employees: String(j) } }));
      await inTransaction(app.rt, (w) => addRows(w, app.workspaceA, other.baseId, { rows }, app.rt.config.runs));
    }
    small = await createBase(app, { name: "Small", columns: COLUMNS });
    const rows = Array.from({ length: 200 }, (_, i) => ({ cells: { Company: `Small ${i}`, Employees: String(i) } }));
    const added = await inTransaction(app.rt, (w) =>
      addRows(w, app.workspaceA, small.baseId, { rows }, app.rt.config.runs),
    );
    rowIds = added.rows.map((r: { id: string }) => r.id);
  }, 300_000);
  afterAll(async () => {
    await app?.close();
  });
  const indexBuilt = (columnId: string | null, name = `rows_by_${columnId}_number`.toLowerCase()) =>
    waitFor(
      async () =>
        (
          await app.rt.db.prisma.$queryRawUnsafe<unknown[]>(
            `SELECT 1 FROM pg_class c JOIN pg_index x ON x.indexrelid = c.oid WHERE c.relname = $1 AND x.indisvalid`,
            name,
          )
        ).length > 0 || null,
      `the index ${name}`,
      30_000,
    );

  const inPlannedWork = <T>(plans: { sql: string; plan: string }[], fn: (w: Work) => Promise<T>) =>
    inTransaction(app.rt, (w) => fn({ ...w, tx: planning(w.tx, plans) }));

  it("the large base's typed column has the only column index", async () => {
    const found = await app.rt.db.prisma.$queryRawUnsafe<{ indexname: string }[]>(
      `SELECT indexname FROM pg_indexes WHERE tablename = 'rows' AND indexname LIKE 'rows_by_%'`,
    );
    expect(found.map((r) => r.indexname)).toEqual([`rows_by_${largeEmployees}_number`.toLowerCase()]);
  });

  it("Add Rows", async () => {
    const plans: { sql: string; plan: string }[] = [];
    const rows = Array.from({ length: 50 }, (_, i) => ({ cells: { Company: `More ${i}`, Employees: String(i) } }));
    await inPlannedWork(plans, (w) => addRows(w, app.workspaceA, small.baseId, { rows }, app.rt.config.runs));
    expect(plans.length).toBeGreaterThan(0);
    expect(scans(plans)).toEqual([]);
  });

  it("Add Rows merged on a column", async () => {
    const plans: { sql: string; plan: string }[] = [];
    const rows = [
      { cells: { Company: "Small 1", Employees: "5" } },
      { cells: { Company: "Brand new", Employees: "6" } },
    ];
    await inPlannedWork(plans, (w) =>
      addRows(w, app.workspaceA, small.baseId, { rows, mergeOn: ["Company"] }, app.rt.config.runs),
    );
    expect(scans(plans)).toEqual([]);
  });

  it("Update Rows", async () => {
    const plans: { sql: string; plan: string }[] = [];
    const rows = rowIds
      .slice(0, 50)
      .map((id, i) => ({ id, cells: { Company: `Renamed ${i}`, Employees: String(1000 + i) } }));
    const out = await inPlannedWork(plans, (w) =>
      updateRows(w, app.workspaceA, small.baseId, { rows }, app.rt.config.runs),
    );
    expect(out.errors).toEqual([]);
    expect(plans.length).toBeGreaterThan(0);
    expect(scans(plans)).toEqual([]);
  });

  it("Query Rows, filtered and sorted by a number, counted", async () => {
    const plans: { sql: string; plan: string }[] = [];
    const out = await queryRows(planning(app.rt.db.prisma, plans), app.workspaceA, small.baseId, {
      filter: { column: "Employees", op: "gte", value: 10 },
      sort: [{ column: "Employees", direction: "desc" }],
      limit: 20,
      count: true,
    } as never);
    expect(out.rows).toHaveLength(20);
    expect(scans(plans)).toEqual([]);
  });

  it("Query Rows searched, in the small base and in the large one", async () => {
    const plans: { sql: string; plan: string }[] = [];
    const out = await queryRows(planning(app.rt.db.prisma, plans), app.workspaceA, small.baseId, {
      search: "small 1",
      limit: 20,
      count: true,
    } as never);
    expect(out.rows.length).toBeGreaterThan(0);
    expect(scans(plans)).toEqual([]);
    // The large base's search goes through its own trigram index (sheet-indexes.ts).
    const large: { sql: string; plan: string }[] = [];
    const found = await queryRows(planning(app.rt.db.prisma, large), app.workspaceA, largeBaseId, {
      search: "large 3999",
      limit: 20,
    } as never);
    expect(found.rows.length).toBeGreaterThan(0);
    expect(scans(large)).toEqual([]);
    expect(large.map((p) => p.plan).join("\n")).toContain(searchIndexName(largeSheetId));
  });

  it("the claim", async () => {
    const lines = await inTransaction(app.rt, (w) => explainClaim(w.tx));
    expect(lines.filter((l) => SCANS_OTHER_BASES.test(l))).toEqual([]);
  });
});
